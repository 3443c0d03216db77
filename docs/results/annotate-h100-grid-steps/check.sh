#!/bin/sh
# check.sh "CASE..." "OLD..." - on the GPU, from the repository root:
# each golden CASE's template at every value against its default, and,
# as negative controls expected to fail, the templates an older binary
# wrote for inputs OLD (.dev-gpu/OLD_old.cu, `ktc annotate --no-verify`,
# kept beside the run's logs as OLD.<commit>.cu: 54c38cb here, 52a7be2
# in ../annotate-h100-grid-stride/). .dev-gpu/ktc: a release build
# without libclang; .dev-gpu/lib: libcjson.so.1 (the GPU machine has no
# cJSON).
set -u
K=$PWD/.dev-gpu/ktc
export LD_LIBRARY_PATH=$PWD/.dev-gpu/lib:${LD_LIBRARY_PATH:-}
O=$OUT
# shellcheck disable=SC2086 # the lists split into cases
sh tests/gpu/golden_check.sh "$K" "$O/new" $1
echo "new rc $?"
neg=
for n in $2; do
	mkdir -p tests/annotate/golden/neg_$n
	cp .dev-gpu/${n}_old.cu tests/annotate/golden/neg_$n/out.cu
	: > tests/annotate/golden/neg_$n/case.conf
	neg="$neg neg_$n"
done
# shellcheck disable=SC2086
sh tests/gpu/golden_check.sh "$K" "$O/old" $neg
echo "old rc $?"
