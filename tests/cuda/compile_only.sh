#!/bin/sh
# compile_only.sh KTC TEMPLATE FAILURES[/REJECTED] [OPTION...] - compiles
# configurations of TEMPLATE with NVRTC (`ktc tune --backend cuda
# --compile-only`, no GPU needed) into an empty cubin cache and checks that
# exactly FAILURES of them fail to compile, REJECTED (when given) are
# rejected before compiling as over the device's limits (`constraints`),
# and at least one compiles.
set -eu
ktc=$1 tpl=$2 want=${3%/*}
rejected=$(printf '%s' "$3" | sed -n 's|.*/||p')
shift 3
XDG_CACHE_HOME=$(mktemp -d)
export XDG_CACHE_HOME
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
out=$("$ktc" tune --backend cuda --compile-only -q --json "$@" "$tpl")
count() {
	printf '%s\n' "$out" | sed -n "s/.*\"$1\":[[:space:]]*\([0-9]*\).*/\1/p" | head -n 1
}
failed=$(count compile)
compiled=$(count correct)
over=$(count constraints)
echo "$tpl: $compiled compiled, $failed failed to compile (expected $want)," \
	"$over over the limits (expected ${rejected:-any})"
[ "$failed" = "$want" ] && [ "${compiled:-0}" -gt 0 ] &&
	{ [ -z "$rejected" ] || [ "$over" = "$rejected" ]; }
