#!/bin/sh
# optimize.sh KTC [OUT] [SAMPLE...] - `ktc optimize` on the samples'
# originals (samples/cuda/NAME/NAME.cu, not their hand templates) against
# the hand templates (NAME.kt.cu) tuned at the same shapes, on one GPU
# (docs/optimize.md). For each line of bench/optimize.conf:
#   ktc optimize NAME.cu --budget $BUDGET --rounds $ROUNDS ... -o OUT/NAME.kt.cu
#   ktc tune NAME.kt.cu --budget $BUDGET --problem ... (each shape)
# both with the random strategy, seed 1, checks on. OUT (default .) gets
# each run's template, work folder, summaries and logs; the table is
# printed by bench/optimize_report.py OUT. BUDGET (default 60), ROUNDS
# (default 4) and LIMIT (seconds one optimize run may take, default 600:
# SIGTERM then, and the rounds finished so far are in its summary.json);
# SAMPLE names limit the run to those samples.
set -u
K=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUT=${2:-.}
[ $# -ge 2 ] && shift 2 || shift $#
here=$(cd "$(dirname "$0")" && pwd)
S=$here/../samples/cuda
B=${BUDGET:-60}
R=${ROUNDS:-4}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 > "$OUT/device.txt"
grep -v '^#' "$here/optimize.conf" | while IFS='|' read -r name kernel opts hand; do
	[ -n "$name" ] || continue
	if [ $# -gt 0 ]; then
		case " $* " in *" $name "*) ;; *) continue ;; esac
	fi
	k=""
	[ "$kernel" = - ] || k="--kernel $kernel"
	t0=$(date +%s)
	# shellcheck disable=SC2086 # the options are words
	timeout "${LIMIT:-600}" "$K" optimize "$S/$name/$name.cu" $k $opts \
		--budget "$B" --rounds "$R" \
		--strategy random --seed 1 -o "$OUT/$name.kt.cu" \
		--work "$OUT/$name.work" --json >"$OUT/$name.optimize.json" \
		2>"$OUT/$name.optimize.log"
	echo "== $name optimize rc=$? $(($(date +%s) - t0)) s"
	tail -3 "$OUT/$name.optimize.log"
	i=0
	echo "$hand" | tr ';' '\n' | while read -r shape; do
		p=""
		for v in $shape; do p="$p --problem $v"; done
		# shellcheck disable=SC2086
		"$K" tune "$S/$name/$name.kt.cu" $k $p --budget "$B" \
			--strategy random --seed 1 --no-cache --json \
			>"$OUT/$name.hand-$i.json" 2>"$OUT/$name.hand-$i.log"
		echo "   hand $shape rc=$?"
		i=$((i + 1))
	done
done
python3 "$here/optimize_report.py" "$OUT" > "$OUT/table.md"; cat "$OUT/table.md"
