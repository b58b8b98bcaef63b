#!/usr/bin/env bash
# Records what a set of games prints, to show a change of speed changed nothing else.
# Usage: benches/outputs.sh DIR          write the outputs of the current build to DIR
#        benches/outputs.sh DIR --check  compare the current build's outputs with DIR
# Needs a release build (cargo build --release).
set -uo pipefail
cd "$(dirname "$0")/.."
dir=$1; mode=${2:-}
bin=${FUDA_BIN:-target/release/fuda}
mkdir -p "$dir"
fail=0 n=0
one() { # name, args…
  local name=$1; shift; n=$((n + 1))
  local out; out=$("$bin" "$@" 2>&1 | sed -E 's/"games_per_sec":[0-9.e+-]+/"games_per_sec":_/'; echo "exit ${PIPESTATUS[0]}")
  if [ "$mode" = --check ]; then
    if ! diff -q <(echo "$out") "$dir/$name" >/dev/null; then echo "differs: $name ($*)"; fail=$((fail + 1)); fi
  else
    echo "$out" >"$dir/$name"
  fi
}
for s in $(seq 1 20); do
  one "shrine-first-$s" run shrine --seed "$s" --agents first,first
  one "shrine-random-$s" run shrine --seed "$s" --agents random,random
  one "shrine-bigmoney-$s" run shrine --seed "$s" --agents bigmoney,random --json
  one "shrine-3p-$s" run shrine --players 3 --seed "$s" --agents random,bigmoney,random
  one "utage-random-$s" run utage --seed "$s" --agents random,random
  one "utage-bot-$s" run utage --seed "$s" --agents utage,random --view 1
done
for j in 1 2; do
  one "sim-shrine-random-$j" sim shrine --games 300 --agents random --jobs "$j" --json
  one "sim-shrine-bigmoney-$j" sim shrine --games 300 --agents bigmoney --set kingdom= --jobs "$j" --json
  one "sim-utage-$j" sim utage --games 100 --agents random --jobs "$j" --json
done
if [ "$mode" = --check ]; then echo "outputs: $((n - fail)) same, $fail differ"; exit $((fail > 0)); fi
echo "wrote $n outputs to $dir"
