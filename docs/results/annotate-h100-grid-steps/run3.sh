#!/bin/sh
# On the GPU: the dynamic shared memory golden at every value, and the
# template the 54c38cb binary wrote for it (negative control).
set -u
K=$PWD/.dev-gpu/ktc
export LD_LIBRARY_PATH=$PWD/.dev-gpu/lib:${LD_LIBRARY_PATH:-}
O=$OUT
sh tests/gpu/golden_check.sh "$K" "$O/new" smem_block_count
echo "new rc $?"
mkdir -p tests/annotate/golden/neg_smem_block_count
cp .dev-gpu/smem_block_count_old.cu tests/annotate/golden/neg_smem_block_count/out.cu
: > tests/annotate/golden/neg_smem_block_count/case.conf
sh tests/gpu/golden_check.sh "$K" "$O/old" neg_smem_block_count
echo "old rc $?"
