#!/bin/sh
# space.sh KTC TEMPLATE KERNEL... - `ktc space` parses TEMPLATE, lists
# exactly the KERNELs, and finds each one's default configuration valid at
# the template's default problem.
set -eu
ktc=$1 tpl=$2
shift 2
out=$("$ktc" space "$tpl")
printf '%s\n' "$out" | grep -E '^kernel|^valid|^default'
found=$(printf '%s\n' "$out" | sed -n 's/^kernel \([A-Za-z_0-9]*\) .*/\1/p' | tr '\n' ' ')
[ "$found" = "$* " ] || { echo "kernels: '$found', expected '$* '"; exit 1; }
valid=$(printf '%s\n' "$out" | grep -c '^default configuration: *valid')
[ "$valid" -eq $# ]
