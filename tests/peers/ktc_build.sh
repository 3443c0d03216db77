#!/bin/sh
# ktc_build.sh KTC NVCC - the path bench/peers.sh takes from a tuning run to
# a kernel the harness can call, for the four samples it compares with
# SGLang: a results file (a synthetic landscape here, searched by the sim
# backend: no GPU), `ktc apply`, then nvcc builds the written template
# behind bench/peers_ktc.cu's C entry point, whose symbol must be there.
set -u
ktc=$1
nvcc=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=1
for s in silu_and_mul fused_add_rmsnorm merge_attn_states per_token_group_quant_fp8; do
	tpl=$root/samples/cuda/$s/$s.kt.cu
	k=${s}_kernel
	"$ktc" landscape "$tpl" -k "$k" --kind bowl --seed 1 -o "$tmp/$s.land.json" >/dev/null &&
		"$ktc" tune "$tpl" -k "$k" --from "$tmp/$s.land.json" -s bayes -n 8 --no-cache \
			-o "$tmp/$s.t4.json" -q >/dev/null &&
		"$ktc" apply "$tpl" "$tmp/$s.t4.json" -k "$k" -o "$tmp/$s.kt.cu" >/dev/null &&
		"$nvcc" -O3 -std=c++17 -Xcompiler -fPIC -shared -gencode=arch=compute_90a,code=sm_90a \
			-include "$tmp/$s.kt.cu" -DPEERS_KERNEL=$n "$root/bench/peers_ktc.cu" \
			-o "$tmp/$s.so" ||
		{ echo "FAIL: $s"; fail=1; n=$((n + 1)); continue; }
	entry=ktc_$s
	nm -D "$tmp/$s.so" | grep -q " T $entry\$" || { echo "FAIL: $s.so lacks $entry"; fail=1; }
	n=$((n + 1))
done
[ $fail = 0 ] && echo "peers ktc build: ok"
exit $fail
