#!/bin/sh
# realcode_report_check.sh - bench/real-code/report.py on invented rows
# (never a report): the shares, parameters per kernel and the lines left
# to complete by kind, a buffer's element type (`arg y ?[n] out`) counted
# with the buffers.
set -u
here=$(cd "$(dirname "$0")" && pwd)
py=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/kept/p"
cat > "$tmp/p.txt" <<'ROWS'
file                      result     params kernels complete seconds  note
/s/a.cu                   annotated       3       1        4    1.50
/s/b.cu                   verified-0      0       2        1    2.50
/s/c.cu                   nvcc-fails      0       1        0    0.50
/s/d.cu                   timeout         0       1        0   60.00
/s/e.cu                   host-only       0       0        0    0.40
/s/f.cu                   no-kernel       0       0        0    0.60
ROWS
cat > "$tmp/kept/p/s_a.cu.out" <<'OUT'
// ktc: complete and uncomment: #pragma kt problem n values(?)
// ktc: complete and uncomment: #pragma kt arg y ?[n] out
// ktc: complete and uncomment: #pragma kt arg x float[?] in
// ktc: complete and uncomment: #pragma kt arg a float = ?
OUT
cat > "$tmp/kept/p/s_b.cu.out" <<'OUT'
// ktc: complete and uncomment: #pragma kt kernel template(?)
OUT
"$py" "$here/../../bench/real-code/report.py" "$tmp" p > "$tmp/r.md" ||
	{ echo "FAIL: report.py"; exit 1; }
fail=0
want() {
	grep -F -- "$1" "$tmp/r.md" > /dev/null ||
		{ echo "FAIL: no '$1' in:"; cat "$tmp/r.md"; fail=1; }
}
# 6 files, 1 host only, 4 kernel files nvcc compiles, 1 annotated (25%),
# 1 verified with none, 1 no kernel, 3 parameters over 3 kernels of
# verified files, 5 lines to complete
want "| p | 6 | 1 | 4 | 1 (25%) | 1 | 1 | 0 | 1 | 0 | 1.00 (3/3) | 5 |"
# by kind: 1 problem, 2 buffers (a length, an element type), 1 value,
# 0 launches, 1 template
want "| p | 1 | 2 | 1 | 0 | 1 |"
exit $fail
