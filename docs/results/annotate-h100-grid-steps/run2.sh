#!/bin/sh
# On the GPU: two more goldens at every value, and the templates the
# 54c38cb binary wrote for them (negative controls, expected to fail).
set -u
K=$PWD/.dev-gpu/ktc
export LD_LIBRARY_PATH=$PWD/.dev-gpu/lib:${LD_LIBRARY_PATH:-}
O=$OUT
sh tests/gpu/golden_check.sh "$K" "$O/new" last_thread_literal unrolled_reduction
echo "new rc $?"
for n in last_thread_literal unrolled_reduction; do
	mkdir -p tests/annotate/golden/neg_$n
	cp .dev-gpu/${n}_old.cu tests/annotate/golden/neg_$n/out.cu
	: > tests/annotate/golden/neg_$n/case.conf
done
sh tests/gpu/golden_check.sh "$K" "$O/old" neg_last_thread_literal neg_unrolled_reduction
echo "old rc $?"
