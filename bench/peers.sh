#!/bin/bash
# bench/peers.sh - ktc beside its peers on one GPU, in one command, and
# docs/peers.md written from what was measured (bench/peers_report.py; no
# number in it is typed by hand):
#
# 1. Kernel Tuner and ktc on one template (tests/cuda/silu_mul.kt.cu, its
#    240 configurations at T=4096 D=14336), brute force and one
#    model-based strategy each, output checks on in both, timed from the
#    user's side (the wall clock of the command, compilation included);
#    then one neutral harness (bench/peers_time.py space: NVRTC and CUDA
#    events, no code of either tool) times every configuration of the space
#    and, again, the best each run found.
# 2. SGLang's kernels (silu_and_mul, fused_add_rmsnorm, merge_state_v2,
#    per_token_group_quant_8bit v2 and v1) beside ktc's tuned samples
#    (samples/cuda/, `ktc tune` per token count T, `ktc apply`), both built
#    with nvcc, timed by one harness on the same inputs, outputs compared
#    with a float reference (bench/peers_time.py kernels).
#
#   bench/peers.sh
#
# Needs no network. Environment:
#   KTC       the ktc binary (default .gpu/bin/ktc; its folder also holds
#             libcjson.so.1 where the machine has no cJSON)
#   SGL       SGLang's sources, prepared by bench/peers_fetch.sh (.sgl)
#   WHL       Kernel Tuner's wheels and those of its dependencies the
#             machine lacks, installed into a temporary folder (.whl)
#   RESULTS   raw results and plots (docs/results/peers); REPORT (docs/peers.md)
#   TOTAL     seconds the whole run should take (500): part 2 starts no
#             new tuning once TOTAL - 110 have passed (the report says
#             which shapes were left out) and its harness is stopped at
#             TOTAL + 20; with the report that ends within 9 minutes
#   KT_LIMIT  seconds each Kernel Tuner run may take (90): its brute force
#             is stopped then and its cache file read
#   BAYES     configurations of the model-based runs (60), BATCH ktc's
#             batch (16), KT_LANG Kernel Tuner's backend (auto: CUPY, else
#             NVCUDA)
#   BUDGET    configurations per `ktc tune` of part 2 (32), TUNE_LIMIT
#             seconds each may take (10), SHAPES the token counts, in the
#             order they are tuned (128,1024,4096,512,256,16384,64,1,16)
#   OUT       when set (the GPU machine's output folder): the results and
#             the report go there as OUT/peers.tgz, packed again after each
#             part, so a run stopped from outside still returns what it has
# Clocks and power settings are read, never changed.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
ktc=${KTC:-$root/.gpu/bin/ktc}
sgl=${SGL:-$root/.sgl}
whl=${WHL:-$root/.whl}
res=${RESULTS:-$root/docs/results/peers}
report=${REPORT:-$root/docs/peers.md}
total=${TOTAL:-500}
kt_limit=${KT_LIMIT:-90}
bayes=${BAYES:-60}
batch=${BATCH:-16}
kt_lang=${KT_LANG:-auto}
budget=${BUDGET:-32}
tune_limit=${TUNE_LIMIT:-10}
shapes=${SHAPES:-128,1024,4096,512,256,16384,64,1,16}
tpl=tests/cuda/silu_mul.kt.cu
start=$(date +%s)
work=$(mktemp -d)
exec 3>&1 # progress goes here, also from commands whose output is redirected
log() { printf '[%4ds] %s\n' "$(($(date +%s) - start))" "$*" >&3; }
pack() {
	[ -n "${OUT:-}" ] || return 0
	local files=("${res#"$root"/}")
	[ -f "$report" ] && files+=("${report#"$root"/}")
	tar -czf "$OUT/peers.tgz.tmp" -C "$root" "${files[@]}" 2>/dev/null &&
		mv "$OUT/peers.tgz.tmp" "$OUT/peers.tgz"
}
trap 'pack; rm -rf "$work"' EXIT
[ -x "$ktc" ] || { echo "peers.sh: no ktc at '$ktc' (set KTC)" >&2; exit 1; }
bindir=$(cd "$(dirname "$ktc")" && pwd)
export LD_LIBRARY_PATH=$bindir:${LD_LIBRARY_PATH:-}
rm -rf "$res"
mkdir -p "$res/sglang"
export PYTHONUNBUFFERED=1

if ls "$whl"/*.whl >/dev/null 2>&1; then
	python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
		--target "$work/site" "$whl"/*.whl || { echo "peers.sh: cannot install the wheels of '$whl'" >&2; exit 1; }
	export PYTHONPATH=$work/site${PYTHONPATH:+:$PYTHONPATH}
fi
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')
arch=${cap:-90}
[ "${arch%?}" -ge 9 ] 2>/dev/null && arch=${arch}a
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: ${KTC_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
	echo "command: KT_LIMIT=$kt_limit BAYES=$bayes BATCH=$batch BUDGET=$budget TUNE_LIMIT=$tune_limit TOTAL=$total SHAPES=$shapes bench/peers.sh"
	nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv,noheader 2>&1 | sed 's/^/gpu: /'
	echo "arch: sm_$arch"
	echo "cpus: $(nproc)"
	echo "nvcc: $("$nvcc" --version 2>&1 | tail -n 1)"
	echo "ktc: $("$ktc" --version 2>&1)"
	echo "python: $(python3 -c 'import sys; print(sys.version.split()[0])' 2>&1)"
	python3 -c 'import torch; print("torch:", torch.__version__)' 2>&1 | tail -n 1
	python3 -c 'import cupy; print("cupy:", cupy.__version__)' 2>&1 | tail -n 1
	python3 -c 'from importlib.metadata import version as v; print("kernel_tuner:", v("kernel_tuner"))' 2>&1 | tail -n 1
	sed 's/^/sgl: /' "$sgl/COMMITS" 2>/dev/null || echo "sgl: none ($sgl/COMMITS missing)"
} >"$res/device.txt"
cat "$res/device.txt"

# run NAME LIMIT COMMAND...: COMMAND's wall clock from the user's side
# (epoch seconds before and after) and exit status in RESULTS/NAME.run.json;
# LIMIT > 0 stops it with SIGTERM after LIMIT seconds.
run() {
	local name=$1 limit=$2
	shift 2
	local t0 t1 rc
	t0=$(date +%s.%N)
	if [ "$limit" -gt 0 ]; then
		timeout "$limit" "$@"
	else
		"$@"
	fi
	rc=$?
	t1=$(date +%s.%N)
	printf '{"name": "%s", "t0": %s, "t1": %s, "rc": %d, "limit": %d}\n' \
		"$name" "$t0" "$t1" "$rc" "$limit" >"$res/$name.run.json"
	log "$name: exit $rc, $(awk "BEGIN {printf \"%.1f\", $t1 - $t0}") s"
}

# ---- 1. Kernel Tuner and ktc on one template ----
"$ktc" space "$tpl" --json --list >"$res/space.json" || exit 1
for s in brute_force bayes; do
	n=0
	[ $s = bayes ] && n=$bayes
	log "ktc tune $tpl -s $s -n $n"
	mkdir -p "$work/xdg-$s"
	run "ktc-$s" 150 env XDG_CACHE_HOME="$work/xdg-$s" "$ktc" tune "$tpl" --backend cuda -s "$s" -n "$n" \
		--seed 1 --batch "$batch" --no-cache -o "$res/ktc-$s.t4.json" --json -q \
		>"$res/ktc-$s.summary.json" 2>"$res/ktc-$s.log"
done
for s in bayes_opt brute_force; do
	opts=(--strategy "$s")
	lim=$kt_limit
	[ $s = bayes_opt ] && opts+=(--budget "$bayes" --time-limit "$kt_limit") && lim=$((kt_limit + 30))
	log "Kernel Tuner $s (limit $lim s)"
	mkdir -p "$work/cupy-$s"
	run "kt-$s" "$lim" env CUPY_CACHE_DIR="$work/cupy-$s" python3 bench/peers_kt.py "$tpl" "$res/space.json" \
		"${opts[@]}" --seed 1 --lang "$kt_lang" --cache "$res/kt-$s.cache.json" \
		--meta "$res/kt-$s.meta.json" >"$res/kt-$s.log" 2>&1
	tail -n 3 "$res/kt-$s.log"
done
log "neutral harness: the whole space, then each run's best"
timeout 150 python3 bench/peers_time.py space "$tpl" "$res/space.json" --arch "$arch" --out "$res/space-times.json" \
	--run ktc-brute_force="$res/ktc-brute_force.t4.json" --run ktc-bayes="$res/ktc-bayes.t4.json" \
	--run kt-brute_force="$res/kt-brute_force.cache.json" --run kt-bayes_opt="$res/kt-bayes_opt.cache.json" \
	2>&1 | tee "$res/space-times.log" | tail -n 5
pack

# ---- 2. SGLang's kernels beside ktc's tuned samples ----
# SGLang's device code, cut from its torch entry points, built in the
# background while ktc tunes.
(
	python3 bench/peers_cut.py "$sgl" "$work/cut" || exit 1
	mkdir -p "$work/sgl"
	flags=(-O3 -std=c++17 -Xcompiler -fPIC "-gencode=arch=compute_$arch,code=sm_$arch"
		--expt-relaxed-constexpr --expt-extended-lambda -DNDEBUG
		-DFLASHINFER_ENABLE_F16 -DFLASHINFER_ENABLE_BF16)
	for n in 1 2 3 4 5; do
		"$nvcc" "${flags[@]}" -DPEERS_PART=$n -I "$work/cut" -I "$sgl/flashinfer/include" \
			-c bench/peers_sgl.cu -o "$work/sgl/p$n.o" &
	done
	wait
	"$nvcc" -shared -o "$work/sgl/libsgl.so" "$work/sgl"/p*.o
) >"$res/sgl-build.log" 2>&1 &
sgl_build=$!

mkdir -p "$work/ktc"
python3 bench/peers_time.py problems --shapes "$shapes" >"$work/problems" || exit 1
while read -r s k shape problem; do
	name=$s-$shape
	if [ $(($(date +%s) - start)) -gt $((total - 110)) ]; then
		log "$name: not tuned, the time is up"
		echo "$name" >>"$res/sglang/skipped.txt"
		continue
	fi
	# shellcheck disable=SC2086 # the problem options are words
	"$ktc" tune "samples/cuda/$s/$s.kt.cu" --backend cuda -k "$k" $problem -s bayes -n "$budget" \
		--seed 1 --batch "$batch" --time-limit "$tune_limit" --no-cache \
		-o "$res/sglang/$name.t4.json" --json -q </dev/null \
		>"$res/sglang/$name.summary.json" 2>"$res/sglang/$name.log"
	rc=$?
	"$ktc" apply "samples/cuda/$s/$s.kt.cu" "$res/sglang/$name.t4.json" -k "$k" \
		-o "$work/ktc/$name.kt.cu" </dev/null >>"$res/sglang/$name.log" 2>&1 &&
		python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["best"]["key"])' \
			"$res/sglang/$name.summary.json" >"$work/ktc/$name.key" 2>/dev/null
	echo "$k" >"$work/ktc/$name.kernel"
	echo "$problem" >"$work/ktc/$name.problem"
	log "$name: tune exit $rc, best $(cat "$work/ktc/$name.key" 2>/dev/null || echo none)"
done <"$work/problems"

pack
log "building ktc's tuned kernels"
# shellcheck disable=SC2016 # the inner shell expands it
find "$work/ktc" -name '*.kt.cu' | sed 's/\.kt\.cu$//' |
	xargs -r -P "$(nproc)" -I{} sh -c '
		s=$(basename "{}"); s=${s%-T*}
		case $s in silu_and_mul) n=1 ;; fused_add_rmsnorm) n=2 ;; merge_attn_states) n=3 ;; *) n=4 ;; esac
		"$0" -O3 -std=c++17 -Xcompiler -fPIC -shared -gencode=arch=compute_$1,code=sm_$1 \
			-include "{}.kt.cu" -DPEERS_KERNEL=$n bench/peers_ktc.cu -o "{}.so" >"{}.build.log" 2>&1 ||
			{ echo "build failed: {}"; cat "{}.build.log"; }' "$nvcc" "$arch" | tee "$res/ktc-build.log"
wait $sgl_build || { log "SGLang's build failed:"; cat "$res/sgl-build.log"; }
cp "$work/ktc"/*.key "$res/sglang/" 2>/dev/null
if [ -f "$work/sgl/libsgl.so" ]; then
	log "timing SGLang's and ktc's kernels"
	# what else holds the CPUs as the timing starts: a busy host is what
	# the harness's GPU spin keeps out of the times (peers_time.py)
	ps -eo pid,ppid,etimes,pcpu,args >"$res/processes.txt" 2>&1
	left=$((total + 20 - $(date +%s) + start))
	timeout $((left > 60 ? left : 60)) python3 bench/peers_time.py kernels --sgl "$work/sgl/libsgl.so" --ktc "$work/ktc" \
		--shapes "$shapes" --out "$res/kernels.json" 2>&1 | tee "$res/kernels.log"
fi

pack
# The profiler on ktc's best where a goal was missed, while time is left:
# the report's "why" quotes its counters.
if [ -f "$res/kernels.json" ]; then
	python3 bench/peers_report.py --missed "$res" >"$work/missed" 2>/dev/null
	while read -r name; do
		[ $(($(date +%s) - start)) -lt $((total + 10)) ] || { log "no time left to profile"; break; }
		[ -f "$work/ktc/$name.kt.cu" ] || continue
		log "profile $name (ktc's best; a goal missed)"
		# shellcheck disable=SC2046 # the problem options are words
		timeout 15 "$ktc" tune "$work/ktc/$name.kt.cu" --backend cuda -k "$(cat "$work/ktc/$name.kernel")" \
			$(cat "$work/ktc/$name.problem") -n 1 --profile --no-cache \
			-o "$res/sglang/$name.profile.t4.json" -q </dev/null >/dev/null 2>>"$res/sglang/$name.log"
	done <"$work/missed"
fi

log "report"
python3 bench/peers_report.py "$res" "$report" && log "wrote $report"
