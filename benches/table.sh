#!/usr/bin/env bash
# The Speed table of README.md, measured side by side in one run: for each of
# issue #31's six workloads, instructions per game under callgrind
# (benches/instructions.sh), turns per game, instructions per turn, and games/s
# on one thread (the best of three runs: wall time, informative only); then
# the search agent's playouts a second per game.
# Usage: benches/table.sh NAME=BIN [NAME=BIN …]   (default: now=target/release/fuda)
# Needs valgrind and release builds.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- now=target/release/fuda
workloads=(
  "shrine random|shrine 20 120 --agents random"
  "utage random|utage 20 120 --agents random"
  "hyakki random|hyakki 20 120 --agents random"
  "landgrab random|landgrab 20 120 --agents random"
  "t3 random|t3 20 120 --agents random"
  "Big Money mirror|shrine 200 1200 --agents bigmoney --set kingdom="
)
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
head="| workload |" sep="|---|"
for nb in "$@"; do
  n=${nb%%=*}
  head+=" $n: instructions/game | turns/game | instructions/turn | games/s |"; sep+="---|---|---|---|"
done
echo "$head"; echo "$sep"
for w in "${workloads[@]}"; do
  name=${w%%|*}; read -r -a a <<<"${w#*|}"
  game=${a[0]} rest=("${a[@]:3}")
  row="| $name |"
  for nb in "$@"; do
    bin=${nb#*=}
    ir=$(FUDA_BIN=$bin benches/instructions.sh "${a[@]}" | awk '{print $1}' | tr -d ,)
    turns=$("$bin" sim "$game" --games 200 --jobs 1 --json "${rest[@]}" | field avg_turns)
    best=0
    for _ in 1 2 3; do
      gps=$("$bin" sim "$game" --games 2000 --jobs 1 --json "${rest[@]}" | field games_per_sec)
      best=$(python3 -c "print(max($best, $gps))")
    done
    row+=$(python3 -c "print(f' {$ir:,} | {$turns:.1f} | {$ir / $turns:,.0f} | {$best:,.0f} |')")
  done
  echo "$row"
done
# Search (goal 4): the ISMCTS agent's playouts a second, each from a fork of
# the game at its decision (20 playouts a decision, against a random agent).
echo
head="| search, 20 playouts a decision |" sep="|---|"
for nb in "$@"; do head+=" ${nb%%=*}: playouts | playouts/s |"; sep+="---|---|"; done
echo "$head"; echo "$sep"
for game in shrine utage hyakki landgrab t3; do
  row="| $game |"
  for nb in "$@"; do
    out=$("${nb#*=}" sim "$game" --games 2 --jobs 1 --agents ismcts:20,random --json)
    row+=$(python3 -c "import json,sys; d=json.loads(sys.argv[1]); print(f\" {d['search_playouts']:,} | {d['search_playouts_per_sec']:,.0f} |\")" "$out")
  done
  echo "$row"
done
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)."
