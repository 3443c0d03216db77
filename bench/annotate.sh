#!/bin/bash
# bench/annotate.sh - how long `ktc annotate` takes on each sample kernel
# (tests/annotate/inputs, tests/annotate/unseen, and the originals of
# samples/cuda): the median of 5 runs of
# `ktc annotate FILE -o OUT`, the whole command, verification included
# (parse, plan, nvcc on the original and the annotated file, NVRTC on every
# domain value). Writes the table into docs/annotate.md between the
# `bench:annotate` markers, with the command, the machine and the date.
#
#   bench/annotate.sh [KTC]      (default: build/ktc)
#
# The machine may be shared: the load average before and after the runs is
# recorded with the numbers, since other work on it slows every compile;
# the CPU time (user + system, children such as nvcc included) is recorded
# too, as it depends much less on the load than the wall-clock time.
set -eu
cd "$(dirname "$0")/.."
ktc=${1:-build/ktc}
runs=5
doc=docs/annotate.md
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktc-bench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
TIMEFORMAT='%R %U %S'

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
rows=""
worst=0
for f in tests/annotate/inputs/*.cu tests/annotate/unseen/*.cu \
	samples/cuda/*/*.cu; do
	case $f in *.kt.cu | */check.cu) continue ;; esac # the originals only
	: >"$tmp/times"
	for i in $(seq $runs); do
		if ! { time "$ktc" annotate "$f" -o "$tmp/out.cu" \
			2>"$tmp/log"; } 2>>"$tmp/times"; then
			echo "bench: ktc annotate failed on $f:" >&2
			cat "$tmp/log" >&2
			exit 1
		fi
	done
	wall=$(awk '{ print $1 }' "$tmp/times" | median)
	cpu=$(awk '{ print $2 + $3 }' "$tmp/times" | median)
	kept=$(sed -n 's/.*: \([0-9]*\) parameters\{0,1\} kept.*/\1/p' "$tmp/log")
	kept=${kept:-0}
	name=${f#tests/annotate/}
	rows+="| \`$name\` | $kept | $(printf '%.2f' "$wall") | $(printf '%.2f' "$cpu") |"$'\n'
	worst=$(awk -v a="$wall" -v b="$worst" 'BEGIN { print (a > b ? a : b) }')
	printf '%-45s %6.2f s wall  %6.2f s cpu\n' "$name" "$wall" "$cpu"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
nvccv=$("${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" --version |
	sed -n 's/.*release \([0-9.]*\).*/\1/p')
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
	echo "<!-- bench:annotate:begin (written by bench/annotate.sh) -->"
	echo "Command: \`bench/annotate.sh\` (median of $runs runs of"
	echo "\`ktc annotate FILE -o OUT\` per file, verification included)."
	echo "Machine: $(nproc) cores, $model; CUDA $nvccv; ktc $commit;"
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'). Load average (1, 5, 15 min)"
	echo "before: $load_before; after: $load_after."
	echo
	echo "| file | parameters | median wall (s) | median CPU (s) |"
	echo "|---|---:|---:|---:|"
	printf '%s' "$rows"
	echo
	echo "Slowest file (wall): $(printf '%.2f' "$worst") s."
	echo "<!-- bench:annotate:end -->"
} >"$tmp/block"

if grep -q 'bench:annotate:begin' "$doc"; then
	awk -v block="$tmp/block" '
		/bench:annotate:begin/ {
			while ((getline l < block) > 0) print l
			skip = 1; next
		}
		/bench:annotate:end/ { skip = 0; next }
		!skip' "$doc" >"$tmp/doc"
	cp "$tmp/doc" "$doc"
else
	cat "$tmp/block" >>"$doc"
fi
echo "slowest: $(printf '%.2f' "$worst") s wall; table written to $doc"
