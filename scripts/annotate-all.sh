#!/bin/sh
# annotate-all.sh - runs `ktc annotate` on every CUDA file of a
# compile_commands.json and collects one diff per file for review.
#
#   scripts/annotate-all.sh [-p BUILD_DIR] [-o OUT_DIR] [-i] [-k KTC] [FILTER]
#
#   -p BUILD_DIR  folder holding compile_commands.json (default: build)
#   -o OUT_DIR    where the diffs and logs go (default: annotate-out)
#   -i            annotate the files in place instead (each one only after
#                 its own full verification; a file that fails is left as
#                 it was)
#   -k KTC        the ktc binary (default: ktc on PATH, else build/ktc)
#   FILTER        only files whose path contains FILTER
#
# Prints one line per file (ok / failed, and the summary line of ktc) and
# exits 1 if any file failed. Files below the current folder are named
# relative to it, so `git apply annotate-out/*.diff` works from here. Files are annotated one after another: each
# `ktc annotate` already uses every core for its verification.
set -u
build=build
out=annotate-out
inplace=0
ktc=$(command -v ktc 2>/dev/null || echo build/ktc)
while getopts "p:o:ik:h" opt; do
	case $opt in
	p) build=$OPTARG ;;
	o) out=$OPTARG ;;
	i) inplace=1 ;;
	k) ktc=$OPTARG ;;
	*) sed -n '2,18p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
filter=${1:-}
db="$build/compile_commands.json"
if [ ! -r "$db" ]; then
	echo "annotate-all: cannot read '$db' (see -p)" >&2
	exit 2
fi
mkdir -p "$out"

# The "file" of each entry, made absolute with its "directory" (the JSON
# that CMake, Bear and Ninja write puts each key on a line of its own, or
# all keys of an entry on one line; both are read here).
files=$(awk '
	function val(s, key,   r) {
		r = s; sub(".*\"" key "\"[ \t]*:[ \t]*\"", "", r)
		sub("\".*", "", r); return r
	}
	/"directory"[ \t]*:/ { dir = val($0, "directory") }
	/"file"[ \t]*:/ {
		f = val($0, "file")
		if (f !~ /^\//) f = dir "/" f
		print f
	}' "$db" | grep '\.cu$' | sort -u)

status=0
for f in $files; do
	# relative to here when below it, so the diffs apply from here
	f=$(realpath -m --relative-base=. "$f")
	case "$f" in *"$filter"*) ;; *) continue ;; esac
	name=$(echo "$f" | sed 's|^/||; s|/|_|g')
	if [ $inplace = 1 ]; then
		"$ktc" annotate -p "$build" -i "$f" 2>"$out/$name.log"
	else
		"$ktc" annotate -p "$build" --diff "$f" >"$out/$name.diff" \
			2>"$out/$name.log"
	fi
	rc=$?
	summary=$(grep '^ktc annotate: ' "$out/$name.log" | tail -1)
	summary=${summary#ktc annotate: }
	summary=${summary#"$f": }
	if [ $rc = 0 ]; then
		echo "ok      $f: $summary"
	else
		echo "failed  $f: $summary"
		status=1
	fi
done
exit $status
