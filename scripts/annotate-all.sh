#!/bin/sh
# annotate-all.sh - runs `ktc annotate` over many CUDA files and prints one
# table row per file (result, parameters kept, kernels, lines left to
# complete, seconds) and the totals: the measure of issue 12.
#
#   scripts/annotate-all.sh [-p BUILD_DIR] [-o OUT_DIR] [-i] [-k KTC]
#                           [--timeout S] [--filter TEXT]
#                           [--src DIR --commit SHA] [WHAT...]
#
# WHAT is a compile_commands.json (each .cu/.cuh entry of it, with that
# database), a folder (its .cu and .cuh files, each with -p's database or
# the one ktc finds for it) or one file; none: BUILD_DIR's database
# (default build). -o keeps each annotated file (NAME.out) and ktc's
# messages (NAME.log) in OUT_DIR; -i annotates the files in place instead
# (each only after its own verification); otherwise nothing is written.
# --timeout S (default 60) stops ktc on one file; --filter keeps the files
# whose path contains TEXT. --src DIR --commit SHA first checks that DIR
# is a git checkout at SHA (a snapshot taken elsewhere: this script
# fetches nothing).
#
# Results: annotated (exit 0, at least one parameter), verified-0 (exit 0,
# no parameter), host-only (ktc found no __global__ kernel and the file's
# text has neither the word __global__ nor a launch, `<<<` or a
# cudaLaunchKernel/cuLaunchKernel call: host code with nothing to
# annotate, outside the measure like nvcc-fails), no-kernel (ktc found no
# __global__ kernel in a file that has one or launches one), timeout,
# crash (killed by a signal), nvcc-fails (the file as it is does not
# compile with nvcc and the database's flags: outside the issue's measure,
# "the files nvcc compiles", and listed apart), missing-header (a header
# it includes is not found with the database's flags, so nvcc cannot
# compile it either: counted as nvcc-fails), failed (any other exit;
# the row ends with ktc's last message). Kernels are the `__global__`
# words of the file.
# Exits 1 when a file failed, timed out or crashed.
set -u
ktc=$(command -v ktc 2>/dev/null || echo build/ktc)
pdir=
tmo=60
src=
commit=
keep=
inplace=0
filter=
while [ $# -gt 0 ]; do
	case $1 in
	-k | --ktc) ktc=$2; shift 2 ;;
	-p) pdir=$2; shift 2 ;;
	-o | --keep) keep=$2; shift 2 ;;
	-i) inplace=1; shift ;;
	--timeout) tmo=$2; shift 2 ;;
	--filter) filter=$2; shift 2 ;;
	--src) src=$2; shift 2 ;;
	--commit) commit=$2; shift 2 ;;
	-h | --help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	-*) echo "annotate-all.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ $# = 0 ]; then
	db="${pdir:-build}/compile_commands.json"
	[ -r "$db" ] || { echo "annotate-all.sh: cannot read '$db' (see -p)" >&2; exit 2; }
	set -- "$db"
fi
if [ -n "$src" ]; then
	head=$(git -C "$src" rev-parse HEAD 2>/dev/null) ||
		{ echo "annotate-all.sh: '$src' is not a git checkout" >&2; exit 2; }
	case $head in
	"$commit"*) ;;
	*) echo "annotate-all.sh: '$src' is at $head, not $commit" >&2; exit 2 ;;
	esac
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-all-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
[ -n "$keep" ] && mkdir -p "$keep"

# The files: "FILE<TAB>BUILD_DIR" lines.
for w in "$@"; do
	if [ -f "$w" ] && [ "${w##*/}" = compile_commands.json ]; then
		python3 - "$w" <<'PY'
import json, os, sys
db = sys.argv[1]
seen = set()
for e in json.load(open(db)):
    f = os.path.normpath(os.path.join(e.get("directory", "."), e["file"]))
    if f.endswith((".cu", ".cuh", ".h")) and f not in seen:
        seen.add(f)
        print(f + "\t" + os.path.dirname(os.path.abspath(db)))
PY
	elif [ -d "$w" ]; then
		find "$w" -type f \( -name '*.cu' -o -name '*.cuh' \) | sort |
			sed "s|\$|	$pdir|"
	else
		printf '%s\t%s\n' "$w" "$pdir"
	fi
done >"$tmp/files"

printf '%-60s %-10s %6s %7s %8s %7s  %s\n' file result params kernels complete seconds note
n=0
while IFS='	' read -r f bd; do
	case "$f" in *"$filter"*) ;; *) continue ;; esac
	n=$((n + 1))
	pflag=
	[ -n "$bd" ] && pflag="-p $bd"
	out="$tmp/out.$n"
	s=$(date +%s.%N)
	if [ $inplace = 1 ]; then
		timeout "$tmo" "$ktc" annotate $pflag -j 1 -i "$f" \
			>/dev/null 2>"$tmp/err" </dev/null
		rc=$?
		[ $rc = 0 ] && cp "$f" "$out"
	else
		timeout "$tmo" "$ktc" annotate $pflag -j 1 -o "$out" "$f" \
			>/dev/null 2>"$tmp/err" </dev/null
		rc=$?
	fi
	e=$(date +%s.%N)
	secs=$(echo "$e - $s" | bc)
	params=$(sed -n 's/.*: \([0-9]*\) parameters\{0,1\} kept.*/\1/p' \
		"$tmp/err" | tail -1)
	params=${params:-0}
	kernels=$(grep -c '__global__' "$f")
	complete=0
	[ -f "$out" ] && complete=$(grep -c 'ktc: complete' "$out")
	note=
	if [ $rc = 124 ]; then
		result=timeout
	elif [ $rc -gt 128 ]; then
		result=crash
	elif [ $rc = 0 ] && [ "$params" -gt 0 ]; then
		result=annotated
	elif [ $rc = 0 ]; then
		result=verified-0
	elif grep -q 'no __global__ kernel' "$tmp/err" &&
		! grep -Eq '__global__|<<<|cu(da)?Launch[A-Za-z]*Kernel' "$f"; then
		result=host-only
	elif grep -q 'no __global__ kernel' "$tmp/err"; then
		result=no-kernel
		note=$(grep -v '^ ' "$tmp/err" | tail -1 | cut -c1-240)
	elif grep -q 'does not compile with nvcc as it is' "$tmp/err"; then
		result=nvcc-fails
		note=$(grep -v '^ ' "$tmp/err" | grep -v '^note:' | tail -1 |
			cut -c1-160)
	elif grep -q 'the header .* is not found: its folder' "$tmp/err"; then
		result=missing-header
		note=$(grep -v '^ ' "$tmp/err" | grep -v '^note:' | tail -1 |
			cut -c1-160)
	else
		result=failed
		note=$(grep -v '^ ' "$tmp/err" | grep -v '^note:' | tail -1 |
			cut -c1-160)
	fi
	if [ -n "$keep" ]; then
		k=$(echo "$f" | sed 's|^/||; s|/|_|g')
		cp "$tmp/err" "$keep/$k.log"
		[ -f "$out" ] && cp "$out" "$keep/$k.out"
	fi
	rm -f "$out"
	printf '%-60s %-10s %6s %7s %8s %7.2f  %s\n' "$f" "$result" "$params" \
		"$kernels" "$complete" "$secs" "$note"
	printf '%s\t%s\t%s\t%s\t%s\n' "$result" "$params" "$kernels" \
		"$complete" "$secs" >>"$tmp/rows"
done <"$tmp/files"

[ -f "$tmp/rows" ] || { echo "no files"; exit 1; }
python3 - "$tmp/rows" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
n = len(rows)
by = {}
for r in rows:
    by[r[0]] = by.get(r[0], 0) + 1
ok = [r for r in rows if r[0] in ("annotated", "verified-0")]
ann = [r for r in rows if r[0] == "annotated"]
kern_ok = sum(int(r[2]) for r in ok)
params = sum(int(r[1]) for r in ok)
t = sorted(float(r[4]) for r in rows)
def pct(p):
    return t[min(len(t) - 1, int(p * len(t)))]
print()
print("files %d: %s" % (n, ", ".join("%s %d" % (k, by[k]) for k in sorted(by))))
print("annotated and verified: %d of %d (%.0f%%)" % (len(ann), n, 100.0 * len(ann) / n))
m = n - by.get("nvcc-fails", 0) - by.get("missing-header", 0) - \
    by.get("host-only", 0)
if m and m != n:
    print("annotated and verified of the %d kernel files nvcc compiles: "
          "%d (%.0f%%)" % (m, len(ann), 100.0 * len(ann) / m))
print("parameters per kernel (verified files): %s" %
      ("%.2f (%d / %d)" % (params / kern_ok, params, kern_ok) if kern_ok else "-"))
print("lines left to complete (verified files): %d" % sum(int(r[3]) for r in ok))
print("seconds per file: p50 %.1f, p95 %.1f, max %.1f" % (pct(0.5), pct(0.95), t[-1]))
sys.exit(1 if any(r[0] in ("failed", "timeout", "crash") for r in rows) else 0)
PY
