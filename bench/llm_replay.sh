#!/bin/sh
# llm_replay.sh KTC [OUT] - the LLM planner's demonstration on one GPU
# (docs/llm.md): `ktc optimize --planner llm --replay` of the committed
# transcript bench/llm/$SAMPLE.jsonl on the sample's original, and the
# built-in planner on the same file with the same shapes, budget and seed,
# for comparison. SAMPLE (default gelu_and_mul: a new body under EARLY_Y,
# a parameter the catalogue does not have, then the catalogue's row
# split; per_token_group_quant_fp8: a new body under ONCE, the group read
# once and its bytes stored packed; bench/llm/mktranscript.py writes both). No network: the replay reads the transcript. OUT
# (default out/llm-replay) gets each run's template, work folder (with its
# summary.json and, for the LLM run, the transcript it replayed), its JSON
# report and log, device.txt, and table.md (printed at the end).
# BUDGET (default 20) configurations per shape and round, ROUNDS (default
# 3), LIMIT seconds per run (default 900).
set -u
K=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUT=${2:-out/llm-replay}
here=$(cd "$(dirname "$0")" && pwd)
N=${SAMPLE:-gelu_and_mul}
S=$here/../samples/cuda/$N/$N.cu
T=$here/llm/$N.jsonl
B=${BUDGET:-20}
R=${ROUNDS:-3}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1 >"$OUT/device.txt"
git -C "$here/.." rev-parse --short HEAD >"$OUT/commit.txt" 2>/dev/null
# the shapes and options of bench/optimize.conf's line for the sample
opts=$(grep "^$N|" "$here/optimize.conf" | cut -d'|' -f3)
[ -n "$opts" ] || { echo "llm_replay.sh: no line for '$N' in bench/optimize.conf" >&2; exit 1; }
for planner in llm builtin; do
	extra=""
	[ "$planner" = llm ] && extra="--replay $T"
	t0=$(date +%s)
	# shellcheck disable=SC2086 # the options are words
	timeout "${LIMIT:-900}" "$K" optimize "$S" $opts --planner "$planner" $extra \
		--budget "$B" --rounds "$R" --strategy random --seed 1 \
		-o "$OUT/$planner.kt.cu" --work "$OUT/$planner.work" --json \
		>"$OUT/$planner.json" 2>"$OUT/$planner.log"
	echo "== $planner rc=$? $(($(date +%s) - t0)) s"
	tail -4 "$OUT/$planner.log"
done
python3 - "$OUT" "$N" >"$OUT/table.md" <<'PY'
import json, sys
out, sample = sys.argv[1], sys.argv[2]
runs = {}
for p in ("llm", "builtin"):
    try:
        runs[p] = json.load(open(f"{out}/{p}.json"))
    except (OSError, ValueError):
        runs[p] = None
dev = open(f"{out}/device.txt").read().strip()
print(f"{sample} on {dev or '?'}: --planner llm (replayed) against builtin\n")
for p, r in runs.items():
    if not r:
        print(f"{p}: no report (see {p}.log)\n")
        continue
    print(f"{p}: stop: {r.get('stop')}")
    for rd in r["rounds"]:
        print(f"  {rd['round']} {rd.get('refactor') or 'annotate'} "
              f"{rd.get('param') or ''}: {rd.get('verdict')}")
    print()
print("| shape | original µs | builtin µs | llm µs | llm / builtin |")
print("|---|---|---|---|---|")
b, l = runs["builtin"], runs["llm"]
if b and l:
    bk, lk = b["rounds"][b["kept_round"]], l["rounds"][l["kept_round"]]
    for s, shape in enumerate(l["shapes"]):
        o, bt, lt = l["original_ms"][s], bk["best_ms"][s], lk["best_ms"][s]
        print(f"| {shape} | {o * 1e3:.2f} | {bt * 1e3:.2f} | {lt * 1e3:.2f} "
              f"| {lt / bt if bt else 0:.3f} |")
PY
cat "$OUT/table.md"
