#!/usr/bin/env bash
# Installs every dependency of ktc from Debian 12 packages, then configures
# and builds ktc in build/. Safe to run again: apt and cmake skip what is done.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(
  build-essential cmake pkg-config git clang-format patch
  libclang-19-dev clang-19 libclang-rt-19-dev clangd-19  # frontend, fuzzer, IDE check
  libcjson-dev libpcre2-dev libcurl4-openssl-dev         # plans, patterns, LLM client
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd     # OpenCL backend on the CPU
  libopenmpi-dev openmpi-bin                             # mpirun -np N ktc tune (docs/scale.md)
)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: no CUDA toolkit at /usr/local/cuda: the CUDA backend is left out of the build" >&2
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
cmake --build build -j"$(nproc)"
