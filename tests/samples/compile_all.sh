#!/bin/sh
# compile_all.sh KTC TEMPLATE KERNEL - compiles every configuration of
# KERNEL's space in TEMPLATE with NVRTC (`ktc tune --backend cuda
# --compile-only -n 0`, no GPU needed) and checks that all of them compile.
# KTC_SAMPLES_CACHE, if set, holds the compiled binaries between runs.
set -eu
ktc=$1 tpl=$2 kernel=$3
if [ -n "${KTC_SAMPLES_CACHE:-}" ]; then
	mkdir -p "$KTC_SAMPLES_CACHE"
	XDG_CACHE_HOME=$KTC_SAMPLES_CACHE
else
	XDG_CACHE_HOME=$(mktemp -d)
	trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
fi
export XDG_CACHE_HOME
out=$("$ktc" tune --backend cuda --compile-only -q --json -n 0 -k "$kernel" "$tpl")
field() {
	printf '%s\n' "$out" | sed -n "s/.*\"$1\":[[:space:]]*\([0-9]*\).*/\1/p" | head -n 1
}
size=$(field space_size) ok=$(field correct) bad=$(field compile)
echo "$tpl $kernel: $ok of $size configurations compiled, $bad failed"
[ -n "$size" ] && [ "$size" -gt 0 ] && [ "$ok" = "$size" ] && [ "$bad" = 0 ]
