#!/bin/sh
# apply.sh KTC TEMPLATE EXPECTED - `ktc apply` on a synthetic results file
# (`ktc landscape --kind bowl`): the output must equal EXPECTED (UPDATE=1
# rewrites it) and, where nvcc is installed, compile with no -D flags.
set -eu
ktc=$1 tpl=$2 expected=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cp "$tpl" template.cu
"$ktc" landscape --kind bowl -o results.json template.cu >/dev/null
"$ktc" apply template.cu results.json -o applied.cu
if [ "${UPDATE:-0}" = 1 ]; then
	cp applied.cu "$expected"
fi
diff -u "$expected" applied.cu
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ -x "$nvcc" ]; then
	"$nvcc" -arch=sm_90a -c -o applied.o applied.cu
	echo "nvcc compiled the output"
fi
