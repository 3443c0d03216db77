#!/bin/sh
# report.sh KTC PYTHON - bench/peers_report.py on a results folder of
# invented numbers (tests/peers/make_fixture.py, whose comment says which
# values the report must derive), and that the bench's scripts parse.
set -u
ktc=$1
py=${2:-python3}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for f in "$root"/bench/peers_*.py "$root"/tests/peers/make_fixture.py; do
	"$py" -c 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")' "$f" ||
		{ echo "FAIL: $f does not compile"; fail=1; }
done
bash -n "$root/bench/peers.sh" || { echo "FAIL: peers.sh"; fail=1; }
sh -n "$root/bench/peers_fetch.sh" || { echo "FAIL: peers_fetch.sh"; fail=1; }

"$ktc" space "$root/tests/cuda/silu_mul.kt.cu" --json --list >"$tmp/space.json" || exit 1
"$py" "$root/tests/peers/make_fixture.py" "$tmp/space.json" "$tmp/res" || exit 1
"$py" "$root/bench/peers_report.py" "$tmp/res" "$tmp/peers.md" || { echo "FAIL: the report"; exit 1; }

expect() { # a line the report must hold
	grep -qF -- "$1" "$tmp/peers.md" || { echo "FAIL: missing: $1"; fail=1; }
}
expect '| ktc at least 10x Kernel Tuner'"'"'s configurations per minute, checks on (brute_force / brute_force) | 9.0x (600 against 66.7 a minute) | **no** |'
expect '| ktc at least 10x Kernel Tuner'"'"'s configurations per minute, checks on (bayes / bayes_opt) | 10.0x (300 against 30 a minute) | yes |'
expect '| ktc'"'"'s GPU busy at least half its wall time (brute_force) | 60% (validation + benchmark 14.4 s of 24 s) | yes |'
expect '| ktc | brute_force | space exhausted | 240 (240) | 24 | 600 | 60% | 7.2 | 4.8 | 1, 0.1 |'
expect '| ktc | bayes | budget | 60 (60) | 12 | 300 | 60% | 1.8 | 2.4 | 55, 11 |'
expect '| Kernel Tuner | brute_force | limit (90 s) | 100 (100) | 90 | 66.7 | - | 30 | 50 | not reached |'
expect '| Kernel Tuner | bayes_opt | end | 31 (31) | 62 | 30 | - | 9.3 | 15.5 | 26, 52 |'
expect 'Fastest configuration by the neutral harness: `BLOCK=64,VEC=1,ROWS=1,UNROLL=1`, 100 µs'
expect '| 128 | 10 | 8 | 8.1 | 1.25x | 37% | 46% | 3.67 | 100%, 100% | 9.5, 12 | `BLOCK=1` | at least 1.2x: met |'
expect '- silu_and_mul, T=4096, `BLOCK=1`: the harness 121 µs, ktc'"'"'s tuning 40 µs: **not explained**'
expect '| silu_and_mul: ktc never slower than SGLang | met at 1 of 2 shapes; lowest 0.99x (T=4096) | **no** |'
expect '| per_token_group_quant_8bit (fp8): at least 1.4x at T >= 4096 | met at 1 of 1 shapes; lowest 1.50x (T=4096) | yes |'
expect 'Inside `tune_kernel` alone it took 85 s: 70.6 configurations a minute (the process started 5 s before the call).'
expect '- fused_add_rmsnorm, T=1 (never slower): not tuned within the run'"'"'s time'
expect '- merge_state_v2 (merge_attn_states), T=128 (at least 1.2x): not reached'
expect 'ktc'"'"'s best under the profiler (`ktc tune --profile`, one launch): 2.20 MB read from DRAM and 1.00 MB written for a minimum of 3.19 MB, 32 registers, 8 blocks per SM, achieved occupancy 87%, SM throughput 6%'
[ "$("$py" "$root/bench/peers_report.py" --missed "$tmp/res" | tr '\n' ' ')" = "silu_and_mul-T4096 merge_attn_states-T128 " ] ||
	{ echo "FAIL: --missed"; fail=1; }
[ $fail = 0 ] && echo "peers report: ok"
exit $fail
