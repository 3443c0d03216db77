#!/bin/bash
# bench/exp/run.sh - runs the GPU experiments bench/exp/<name>.sh one after
# another on a GPU machine, each under a time limit, with KTC_BIN (the
# folder holding ktc) and OUT=<dest>/<name>, and packs <dest> into
# <dest>.tar.gz (the device tool returns few files).
#
#   KTC_BIN=DIR bench/exp/run.sh DEST [NAME...]
#
# LIMIT seconds per experiment (default 100).
set -u
dest=$1
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for f in bench/exp/*.sh; do
		n=$(basename "$f" .sh)
		[ "$n" = run ] || names+=("$n")
	done
fi
mkdir -p "$dest"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader >"$dest/device.txt" 2>&1
for n in "${names[@]}"; do
	mkdir -p "$dest/$n"
	start=$(date +%s)
	OUT=$dest/$n timeout "${LIMIT:-100}" bash "bench/exp/$n.sh" >"$dest/$n/stdout.txt" 2>&1
	echo "$n: rc=$? $(($(date +%s) - start)) s" | tee -a "$dest/summary.txt"
done
tar -C "$(dirname "$dest")" -czf "$dest.tar.gz" "$(basename "$dest")"
