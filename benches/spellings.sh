#!/usr/bin/env bash
# Equivalent spellings of shipped data run about as fast as the shipped one:
# each benches/spellings/<name>.txt rewrites one game's rules (`--- old` text
# replaced by the `+++ new` text that follows), and that game's workload is
# measured on the shipped data and on each variant. A variant's first lines
# may name its game and workload (the arguments of benches/instructions.sh):
#   # game: landgrab
#   # run: landgrab 20 120 --agents random
# without them: rules/shrine.yaml, and the Big Money mirror.
# Usage: benches/spellings.sh [name…]       (default: every variant)
#        benches/spellings.sh --make DIR name   only write the variant's data to DIR
# Needs valgrind and a release build (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
game_of() { sed -n 's/^# game: *//p' "benches/spellings/$1.txt" | head -1 | grep . || echo shrine; }
run_of() {
  sed -n 's/^# run: *//p' "benches/spellings/$1.txt" | head -1 | grep . ||
    echo "shrine 200 1200 --agents bigmoney --set kingdom="
}
make() { # dir, name: the shipped data with the variant's edits
  local dir=$1 name=$2
  mkdir -p "$dir/rules"; rm -rf "$dir/cards"; cp -r cards "$dir/cards"
  cp rules/*.yaml "$dir/rules/"
  python3 - "$dir/rules/$(game_of "$name").yaml" "benches/spellings/$name.txt" <<'PY'
import sys
path, edits = sys.argv[1], open(sys.argv[2]).read().splitlines(keepends=True)
text = open(path).read()
pairs, cur = [], None
for line in edits:
    if line.startswith("--- "): cur = ["", ""]; pairs.append(cur); i = 0
    elif line.startswith("+++ "): i = 1
    elif cur is not None: cur[i] += line
for old, new in pairs:
    if text.count(old) != 1: sys.exit(f"{sys.argv[2]}: the old text is not in {path.split('/')[-2]}/{path.split('/')[-1]} once")
    text = text.replace(old, new)
open(path, "w").write(text)
PY
}
if [ "${1:-}" = --make ]; then make "$2" "$3"; exit; fi
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(ls benches/spellings/*.txt | xargs -n1 basename | sed 's/\.txt$//'))
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bench() { # workload, flags…: instructions per game
  local run=$1; shift
  # shellcheck disable=SC2086 # the workload is words
  benches/instructions.sh $run "$@" | awk '{print $1}'
}
declare -A base
# Grouped by workload: each game's shipped figure first, then its variants.
for run in $(for n in "${names[@]}"; do run_of "$n" | tr ' ' '\a'; done | sort -u); do
  run=${run//$'\a'/ }
  base[$run]=$(bench "$run")
  echo "${run%% *} shipped ($run): ${base[$run]} instructions per game"
  for n in "${names[@]}"; do
    [ "$(run_of "$n")" = "$run" ] || continue
    make "$tmp/$n" "$n"
    v=$(bench "$run" --data "$tmp/$n")
    python3 -c "b=float('${base[$run]}'.replace(',','')); v=float('$v'.replace(',','')); print(f'  $n: $v instructions per game, {v/b:.2f}x')"
  done
done
