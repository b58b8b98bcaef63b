#!/usr/bin/env bash
# Instructions per game under callgrind: steadier than wall time on a busy machine.
# The cost of loading is cancelled by running two batch sizes and dividing the difference.
# Usage: benches/instructions.sh <game> <small> <large> [fuda sim flags…]
#   benches/instructions.sh shrine 200 1200 --agents bigmoney --set kingdom=
#   benches/instructions.sh utage 20 120 --agents random
# Prints: instructions per game. Needs valgrind and a release build (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
game=$1 small=$2 large=$3; shift 3
bin=${FUDA_BIN:-target/release/fuda}
ir() {
  local out games=$1; shift; out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" sim "$game" --games "$games" --jobs 1 "$@" >/dev/null 2>&1 || true
  local n; n=$(grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}')
  rm -f "$out"; echo "$n"
}
a=$(ir "$small" "$@"); b=$(ir "$large" "$@")
python3 -c "print(f'{($b - $a) / ($large - $small):,.0f} instructions per game')"
