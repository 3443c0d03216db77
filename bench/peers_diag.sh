#!/bin/bash
# bench/peers_diag.sh - the harness of bench/peers.sh (part 2) alone, at
# T = 1, 16, 64, 128, in both orders, with the configurations peers.sh
# chose (docs/results/peers/sglang/*.t4.json): for the rows docs/peers.md
# flags where the harness and ktc's own timing disagree. Needs .gpu/bin
# (ktc) and .sgl (bench/peers_fetch.sh); writes $OUT/k1.json and k2.json,
# which go to docs/results/peers/diag-small-{up,down}.json.
set -u
w=/tmp/w; mkdir -p $w/ktc $w/sgl
export LD_LIBRARY_PATH=$PWD/.gpu/bin:${LD_LIBRARY_PATH:-}
python3 bench/peers_cut.py .sgl $w/cut || exit 1
flags=(-O3 -std=c++17 -Xcompiler -fPIC -gencode=arch=compute_90a,code=sm_90a --expt-relaxed-constexpr --expt-extended-lambda -DNDEBUG -DFLASHINFER_ENABLE_F16 -DFLASHINFER_ENABLE_BF16)
for n in 1 2 3 4 5; do nvcc "${flags[@]}" -DPEERS_PART=$n -I $w/cut -I .sgl/flashinfer/include -c bench/peers_sgl.cu -o $w/sgl/p$n.o & done
python3 bench/peers_time.py problems --shapes 1,16,64,128 | grep '^silu' > $w/problems
while read -r s k shape problem; do
  name=$s-$shape
  .gpu/bin/ktc apply samples/cuda/$s/$s.kt.cu docs/results/peers/sglang/$name.t4.json -k $k -o $w/ktc/$name.kt.cu > /dev/null 2>&1
  cp docs/results/peers/sglang/$name.key $w/ktc/; echo $k > $w/ktc/$name.kernel; echo "$problem" > $w/ktc/$name.problem
  nvcc -O3 -std=c++17 -Xcompiler -fPIC -shared -gencode=arch=compute_90a,code=sm_90a -include $w/ktc/$name.kt.cu -DPEERS_KERNEL=1 bench/peers_ktc.cu -o $w/ktc/$name.so &
done < $w/problems
wait
nvcc -shared -o $w/sgl/libsgl.so $w/sgl/p*.o
ls $w/ktc
python3 bench/peers_time.py kernels --sgl $w/sgl/libsgl.so --ktc $w/ktc --shapes 1,16,64,128 --out ${OUT:-.}/k1.json 2>&1 | grep -v "^$"
python3 bench/peers_time.py kernels --sgl $w/sgl/libsgl.so --ktc $w/ktc --shapes 128,64,16,1 --out ${OUT:-.}/k2.json 2>&1 | grep -v "^$"
