#!/bin/sh
# graph.sh [--check] SRC BUILD - the include and link graph between ktc's
# folders, as markdown on stdout (docs/architecture.md holds its output).
#
# The include graph reads every `#include "dir/..."` of the stages' sources
# (any depth: runtime/cuda/nvrtc.h is runtime's), so a stage that includes
# an internal header of a stage above it is an edge up; a public header
# include/ktc/X.h counts as its stage's (the table below), and may include
# only other public headers. A stage includes internal headers only of its
# own, of util/ (the shared mechanisms) and the few another stage exports
# ($exported below).
# The link graph reads what CMake built in BUILD: an edge A -> B where an
# object of A uses a symbol an object of B defines. With --check
# it exits 1 when an edge points up the layers (which also rules out a
# cycle: the layers are a total order) or a folder has no layer.
set -eu
check=0
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
src=$1 build=$2
# the layers, bottom first; cli sits on top of them all
layers="util grammar tuner runtime frontend planner llm rewriter optimize cli"
# the stage each public header belongs to
api="common:util diag:util model:grammar eval:tuner space:tuner pool:runtime
strategy:tuner results:tuner tune:tuner check:tuner frontend:frontend plan:planner
annotate:planner llm:llm rewrite:rewriter optimize:optimize wisdom:tuner
export:runtime"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-graph-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# internal headers another stage may include: the rest of a stage's headers
# are its own (util's are every stage's: it is the shared mechanisms)
exported="frontend/cand.h runtime/cuda/nvrtc.h"

# include edges: "from to"
for stage in $layers; do
	find "$src/$stage" -name '*.[ch]' | sort | while read -r f; do
		sed -n 's/^#include "\([a-z_]*\)\/\([a-z_/]*\)\.h".*/\1 \2/p' "$f" |
			while read -r dir hdr; do
				if [ "$dir" = ktc ]; then
					dir=$(printf '%s\n' $api | sed -n "s/^$hdr://p")
					[ -n "$dir" ] || dir="ktc/$hdr.h"
				elif [ "$dir" != "$stage" ] && [ "$dir" != util ]; then
					case " $exported " in
					*" $dir/$hdr.h "*) ;;
					*) echo "$f: $dir/$hdr.h" >>"$tmp/private" ;;
					esac
				fi
				echo "$stage $dir"
			done
	done
done | sort -u >"$tmp/include"

# link edges: the stages' archives (BUILD/libktc_<stage>.a, which hold no
# stale objects of moved files) and the CLI's objects
for stage in $layers; do
	f=$build/libktc_$stage.a
	[ $stage = cli ] && f=$(find "$build/CMakeFiles/ktc.dir" -name '*.o')
	[ -n "$f" ] && ls $f >/dev/null 2>&1 || continue
	# shellcheck disable=SC2086
	nm -g --defined-only $f | awk -v f=$stage 'NF==3{print "D", $3, f}'
	# shellcheck disable=SC2086
	nm -u $f | awk -v f=$stage 'NF>=2{print "U", $NF, f}'
done >"$tmp/symbols"
if ! grep -q '^D' "$tmp/symbols"; then
	echo "graph.sh: no libktc_*.a in '$build'" >&2
	exit 2
fi
awk '$1=="D"{def[$2]=$3; next} {use[NR]=$2" "$3}
     END{for(i in use){split(use[i],a," ");
         if((a[1] in def) && def[a[1]]!=a[2]) print a[2], def[a[1]]}}' \
	"$tmp/symbols" | sort -u >"$tmp/link"

# public headers: nothing but <system> and "ktc/..." headers
grep -n '^#include "' "$src"/include/ktc/*.h | grep -v '"ktc/' |
	while IFS= read -r line; do
		echo "graph.sh: a public header includes an internal one: $line" >&2
		echo x >>"$tmp/bad"
	done

# internal headers: a stage's own, util's, or one it exports
if [ -s "$tmp/private" ]; then
	sed 's/^/graph.sh: another stage'"'"'s internal header: /' "$tmp/private" >&2
	echo x >>"$tmp/bad"
fi

rank() { echo "$layers" | tr ' ' '\n' | grep -nx "$1" | cut -d: -f1; }
bad=0
table() { # table FILE: one row per folder, its edges down (and up, flagged)
	echo "| folder | layer | $2 |"
	echo "|---|---|---|"
	for from in $layers; do
		to=$(awk -v f="$from" '$1==f && $2!=f{print $2}' "$1" | tr '\n' ' ')
		out=""
		for t in $to; do
			rf=$(rank "$from") rt=$(rank "$t" || true)
			if [ -z "$rt" ] || [ "$rt" -gt "$rf" ]; then
				out="$out **$t (UP)**"
				echo "graph.sh: $3 edge $from -> $t points up" >&2
				echo x >>"$tmp/bad"
			else
				out="$out $t"
			fi
		done
		echo "| $from | $(rank "$from") |${out:- (none)} |"
	done
}
echo "### Include graph"
echo
table "$tmp/include" "includes headers of" include
echo
echo "### Link graph"
echo
table "$tmp/link" "uses symbols of" link
if [ $check = 1 ] && [ -s "$tmp/bad" 2>/dev/null ]; then
	exit 1
fi
exit 0
