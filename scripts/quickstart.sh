#!/usr/bin/env bash
# The README's first command: installs the dependencies, builds ktc, then
# shows the main job on one kernel: `ktc annotate` turns a CUDA kernel's
# literals into a #pragma kt template (printed as a diff), and `ktc tune`
# searches a template: on the NVIDIA GPU when there is one, otherwise an
# OpenCL sample on the CPU through PoCL, so the whole loop (build, run,
# verify, time, search, cache) is real on any machine.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

echo
echo "== ktc annotate: a CUDA kernel's literals become parameters (diff)"
build/ktc annotate tests/annotate/inputs/rmsnorm.cu --diff || true

echo
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
	echo "== ktc tune on the GPU: samples/cuda/silu_and_mul"
	build/ktc tune samples/cuda/silu_and_mul/silu_and_mul.kt.cu \
		--backend cuda --strategy bayes --budget 60 --batch 32 \
		-o silu_and_mul.t4.json
else
	echo "== no NVIDIA GPU here: ktc tune on PoCL (OpenCL on the CPU)"
	build/ktc tune samples/opencl/saxpy.cl --backend opencl --budget 20 \
		-o saxpy.t4.json
fi
