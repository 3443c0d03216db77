#!/bin/sh
# graph_rejects.sh SRC BUILD - scripts/graph.sh --check fails on a tree whose
# stage includes an internal header of a stage above it (at any depth of
# folders), on a public header that includes an internal one and on a stage
# including an internal header of another stage that it does not export.
set -u
src=$1 build=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-graph-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for d in util grammar tuner runtime frontend planner rewriter cli include/ktc; do
	mkdir -p "$tmp/$d"
done
check() { # check WHAT MESSAGE: graph.sh must fail with MESSAGE
	if sh "$src/scripts/graph.sh" --check "$tmp" "$build" >/dev/null 2>"$tmp/err"; then
		echo "graph.sh accepted $1"
		exit 1
	fi
	grep -q "$2" "$tmp/err" || { cat "$tmp/err"; exit 1; }
}
echo '#include "runtime/cuda/nvrtc.h"' >"$tmp/grammar/a.c"
check "grammar including runtime/cuda/nvrtc.h" "include edge grammar -> runtime points up"
: >"$tmp/grammar/a.c"
echo '#include "util/str.h"' >"$tmp/include/ktc/x.h"
check "include/ktc/x.h including util/str.h" "a public header includes an internal one"
rm "$tmp/include/ktc/x.h"
echo '#include "frontend/ast.h"' >"$tmp/rewriter/a.c"
check "rewriter including frontend/ast.h" "another stage's internal header: .*rewriter/a.c: frontend/ast.h"
echo '#include "runtime/cuda/nvrtc.h"' >"$tmp/rewriter/a.c"
sh "$src/scripts/graph.sh" --check "$tmp" "$build" >/dev/null 2>"$tmp/err" ||
	{ echo "graph.sh refused an exported header:"; cat "$tmp/err"; exit 1; }
echo "graph.sh rejects all three"
