#!/bin/sh
# graph_check.sh SRC BUILD FULL - scripts/graph.sh --check: every include and
# link edge between folders points down the layers. With FULL=1 (a build
# with libclang, CUDA and OpenCL, as docs/architecture.md's was) the graph
# must also be the one that page shows.
set -u
src=$1 build=$2 full=$3
out=$(mktemp "${TMPDIR:-/tmp}/ktc-graph-XXXXXX")
trap 'rm -f "$out" "$out.doc"' EXIT
sh "$src/scripts/graph.sh" --check "$src" "$build" >"$out" || exit 1
[ "$full" = 1 ] || exit 0
sed -n '/^<!-- graph.sh begin -->$/,/^<!-- graph.sh end -->$/p' \
	"$src/docs/architecture.md" | sed '1d;$d' >"$out.doc"
if ! diff -u "$out.doc" "$out"; then
	echo "docs/architecture.md's graph is stale: scripts/graph.sh . build"
	exit 1
fi
