#!/bin/sh
# On the GPU: the new goldens' templates at every value against their
# defaults, and the templates the 54c38cb binary wrote for two of them
# (negative controls, expected to fail).
set -u
K=$PWD/.dev-gpu/ktc
export LD_LIBRARY_PATH=$PWD/.dev-gpu/lib:${LD_LIBRARY_PATH:-}
O=$OUT
sh tests/gpu/golden_check.sh "$K" "$O/new" template_arg_position grid_step_folded grid_step_unfollowed
echo "new rc $?"
for n in tap gsf; do
	mkdir -p tests/annotate/golden/neg_$n
	cp .dev-gpu/${n}_old.cu tests/annotate/golden/neg_$n/out.cu
	: > tests/annotate/golden/neg_$n/case.conf
done
sh tests/gpu/golden_check.sh "$K" "$O/old" neg_tap neg_gsf
echo "old rc $?"
