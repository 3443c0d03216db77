#!/bin/sh
# bench/deploy-pack.sh [BUILD] [BIN] - builds what bench/deploy.sh runs,
# for a GPU machine that has no libclang, OpenCL, MPI or cJSON: BUILD
# (default build-gpu/) configured Release without them, and BIN (default
# BUILD/bin) holding ktc, libktcrt.so.0, ktc-deploy-bench, ktc-rt-overhead,
# test_rt_gpu, test_cuda_gpu and libcjson.so.1. Carry BIN (a few MB) and run
#   bash bench/deploy.sh BIN OUT
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-gpu}
bin=${2:-$build/bin}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
	-DKTC_WITH_LIBCLANG=OFF -DKTC_WITH_OPENCL=OFF -DKTC_WITH_MPI=OFF \
	>/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target ktc ktcrt ktc-deploy-bench \
	ktc-rt-overhead test_rt_gpu test_cuda_gpu >/dev/null
mkdir -p "$bin"
cp "$build/ktc" "$build/tests/ktc-deploy-bench" "$build/tests/ktc-rt-overhead" \
	"$build/tests/test_rt_gpu" "$build/tests/test_cuda_gpu" "$bin/"
cp -L "$build/libktcrt.so.0" "$bin/libktcrt.so.0"
cjson=$(ldd "$build/ktc" | awk '/libcjson/ {print $3}')
[ -n "$cjson" ] && cp -L "$cjson" "$bin/"
du -sh "$bin"
