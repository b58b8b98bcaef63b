#!/usr/bin/env bash
# What a search's fork costs, per game, against a turn of random play.
# Usage: benches/forks.sh [game…]   (default: the five shipped games)
# Per game, under callgrind, `sim G --games 1 --agents ismcts:20,random`:
# instructions a playout spends on the copy of the state, on the deal of
# hidden cards, and fixed (all of a playout but the turns it plays; see
# benches/forks.py); a turn of random play (benches/instructions.sh G 20 120
# over the turns a game of `sim G --games 200 --agents random`); and, run
# natively, playouts/s of `sim G --games 2 --agents ismcts:20,random`, with
# forks/s = playouts/s × a playout's instructions ÷ the fixed instructions.
# Needs valgrind and a release build; FUDA_BIN picks the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${FUDA_BIN:-target/release/fuda}
games=${*:-shrine utage hyakki landgrab t3}
for g in $games; do
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" sim "$g" --games 1 --jobs 1 \
    --agents ismcts:20,random >/dev/null 2>&1 || true
  read -r _ n _ copy _ deal _ fixed _ playout < <(python3 benches/forks.py "$out")
  rm -f "$out"
  game=$(FUDA_BIN=$bin benches/instructions.sh "$g" 20 120 --agents random | tr -d , | awk '{print $1}')
  turns=$("$bin" sim "$g" --games 200 --agents random --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["avg_turns"])')
  pps=$("$bin" sim "$g" --games 2 --agents ismcts:20,random --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["search_playouts_per_sec"])')
  python3 - "$g" "$copy" "$deal" "$fixed" "$playout" "$game" "$turns" "$pps" <<'PY'
import sys
g, copy, deal, fixed, playout, game, turns, pps = sys.argv[1], *map(float, sys.argv[2:])
turn = game / turns
print(f"{g}: copy {copy:,.0f}, deal {deal:,.0f}, fixed {fixed:,.0f} instructions a playout "
      f"({fixed / turn:.2f} turns; copy {copy / turn:.2f}); a turn {turn:,.0f}; "
      f"playouts/s {pps:,.0f}; forks/s {pps * playout / fixed:,.0f}")
PY
done
