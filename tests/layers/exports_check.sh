#!/bin/sh
# exports_check.sh LIB - the library defines global symbols, and every one
# of them is kt_-prefixed. Under AddressSanitizer each exported variable
# also has an ODR indicator, __odr_asan.kt_NAME, which names a kt_ global
# and counts as one.
set -u
lib=$1
all=$(nm -g --defined-only "$lib" | awk 'NF==3{print $3}' | sort -u)
n=$(printf '%s\n' "$all" | grep -c '^kt_')
others=$(printf '%s\n' "$all" | grep -v '^kt_' | grep -v '^__odr_asan\.kt_' |
	grep -v '^$')
if [ "$n" = 0 ] || [ -n "$others" ]; then
	echo "exports_check: $n kt_ symbols; not kt_-prefixed:" $others
	exit 1
fi
echo "exports_check: $n symbols, all kt_"
