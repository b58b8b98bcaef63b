#!/usr/bin/env bash
# Loading a large library: shrine plus N generated card files (default 10000),
# `fuda check` under callgrind (instructions, steady on a busy machine), then the
# wall time of 3 plain runs (informative only).
# Usage: benches/load_cards.sh [N]     FUDA_BIN= picks the binary (default target/release/fuda)
# Needs valgrind, python3 and a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000}
bin=${FUDA_BIN:-target/release/fuda}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 benches/load/gen_cards.py "$dir" "$n"
out="$dir/callgrind.out"
valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$out" \
  "$bin" check --data "$dir" shrine >/dev/null 2>&1 || { echo "fuda check failed" >&2; exit 1; }
ir=$(grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}')
python3 -c "print(f'load of shrine + $n cards: {$ir:,} instructions')"
for _ in 1 2 3; do
  s=$(date +%s.%N); "$bin" check --data "$dir" shrine >/dev/null; e=$(date +%s.%N)
  python3 -c "print(f'wall {$e - $s:.3f} s')"
done
