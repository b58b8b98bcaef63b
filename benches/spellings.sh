#!/usr/bin/env bash
# Equivalent spellings of shipped data run about as fast as the shipped one:
# each benches/spellings/<name>.txt rewrites rules/shrine.yaml (`--- old` text
# replaced by the `+++ new` text that follows), and the Big Money mirror's
# instructions per game are measured on the shipped data and on each variant.
# Usage: benches/spellings.sh [name…]       (default: every variant)
#        benches/spellings.sh --make DIR name   only write the variant's data to DIR
# Needs valgrind and a release build (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
make() { # dir, name: the shipped data with the variant's edits
  local dir=$1 name=$2
  mkdir -p "$dir/rules"; rm -rf "$dir/cards"; cp -r cards "$dir/cards"
  cp rules/*.yaml "$dir/rules/"
  python3 - "$dir/rules/shrine.yaml" "benches/spellings/$name.txt" <<'PY'
import sys
path, edits = sys.argv[1], open(sys.argv[2]).read().splitlines(keepends=True)
text = open(path).read()
pairs, cur = [], None
for line in edits:
    if line.startswith("--- "): cur = ["", ""]; pairs.append(cur); i = 0
    elif line.startswith("+++ "): i = 1
    elif cur is not None: cur[i] += line
for old, new in pairs:
    if text.count(old) != 1: sys.exit(f"{sys.argv[2]}: the old text is not in rules/shrine.yaml once")
    text = text.replace(old, new)
open(path, "w").write(text)
PY
}
if [ "${1:-}" = --make ]; then make "$2" "$3"; exit; fi
names=("$@")
[ ${#names[@]} -gt 0 ] || names=($(ls benches/spellings/*.txt | xargs -n1 basename | sed 's/\.txt$//'))
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bench() { benches/instructions.sh shrine 200 1200 "$@" --agents bigmoney --set kingdom= | awk '{print $1}'; }
base=$(bench)
echo "shipped: $base instructions per game"
for n in "${names[@]}"; do
  make "$tmp/$n" "$n"
  v=$(bench --data "$tmp/$n")
  python3 -c "b=float('$base'.replace(',','')); v=float('$v'.replace(',','')); print(f'$n: $v instructions per game, {v/b:.2f}x')"
done
