#!/usr/bin/env bash
# A Rhai card against the same effect in card text (issue #31: at most 2x).
# benches/rhai_vs_text/rhai is shrine with a bot that buys and plays
# kochiya_sanae (its effect in Rhai); benches/rhai_vs_text/text is the same
# with the card replaced by one whose effect is card text. The transcripts of
# a few seeds must be identical; then each is played under callgrind at two
# batch sizes, and the effect's cost a play is the inclusive instructions of
# the kernel's call of a card's effect (`Game::exec_in`, called for nothing
# else in these games) over its calls, the larger batch's less the smaller's
# (which cancels loading and the first script call's engine build).
# The Rhai effect is measured twice: as it runs (a snippet card text can say
# is compiled as card text at load, src/data/lower.rs) and kept in Rhai
# (FUDA_LOWER_RHAI=0).
# Usage: benches/rhai_vs_text.sh [small large]     (default: 10 40 games)
# Needs valgrind and a release build (cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
small=${1:-10} large=${2:-40}
bin=${FUDA_BIN:-target/release/fuda}
dir=benches/rhai_vs_text
args=(shrine --agents sanae --set kingdom=kochiya_sanae)
for seed in 1 2 3; do
  a=$("$bin" run "${args[@]}" --data $dir/rhai --seed $seed --json)
  b=$("$bin" run "${args[@]}" --data $dir/text --seed $seed --json)
  c=$(FUDA_LOWER_RHAI=0 "$bin" run "${args[@]}" --data $dir/rhai --seed $seed --json)
  [ "$a" = "$b" ] && [ "$a" = "$c" ] || { echo "seed $seed: the transcripts differ" >&2; exit 1; }
  plays=$(grep '"cause":"play"' <<<"$a" | grep -c kochiya_sanae || true)
  [ "$plays" -gt 0 ] || { echo "seed $seed: the card was never played" >&2; exit 1; }
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Prints "<instructions> <calls>" of Game::exec_in and the program's total.
measure() {
  local out=$tmp/cg
  FUDA_LOWER_RHAI=$lower valgrind --tool=callgrind --callgrind-out-file=$out "$bin" sim "${args[@]}" --data "$1" \
    --games "$2" --jobs 1 >/dev/null 2>&1
  python3 - $out <<'PY'
import re, subprocess, sys
f = sys.argv[1]
want = re.compile(r"^fuda::engine::exec::<impl fuda::engine::Game>::exec_in$")
names, cur, calls = {}, None, 0
for line in open(f):
    m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
    if m:
        if m.group(3): names[m.group(2)] = m.group(3)
        if m.group(1) == "cfn": cur = names.get(m.group(2))
    elif line.startswith("calls=") and cur and want.match(cur):
        calls += int(line[6:].split()[0])
ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", f],
                     capture_output=True, text=True).stdout
incl = max((int(l.split()[0].replace(",", "")) for l in ann.splitlines()
            if re.search(r":fuda::engine::exec::<impl fuda::engine::Game>::exec_in \[", l)), default=0)
total = next(int(l.split()[1]) for l in open(f) if l.startswith(("summary:", "totals:")))
if not calls or not incl: sys.exit("Game::exec_in not found in the profile (inlined?)")
print(incl, calls, total)
PY
}
declare -A per
for way in text rhai rhai-kept; do
  lower=1; [ $way = rhai-kept ] && lower=0
  read -r i1 c1 t1 < <(measure $dir/${way%-kept} "$small")
  read -r i2 c2 t2 < <(measure $dir/${way%-kept} "$large")
  per[$way]=$(( (i2 - i1) / (c2 - c1) ))
  echo "$way: ${per[$way]} instructions a play ($((c2 - c1)) plays in $((large - small)) games;" \
    "$(( (t2 - t1) / (large - small) )) instructions a game)"
done
python3 -c "print(f'rhai / text: {${per[rhai]} / ${per[text]}:.1f}x (kept in Rhai: {${per[rhai-kept]} / ${per[text]}:.1f}x)')"
