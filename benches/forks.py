#!/usr/bin/env python3
"""Per-playout costs of the search from a callgrind file (benches/forks.sh).

Sums a function's own cost and its calls' inclusive costs by name (inlined
code counts toward the function it is inlined into), and prints per
playout: the copy (`State::clone_from` called by `Game::resume`), the deal
(`Deal::redeal`), and the fixed cost (all of a playout but the turns its
copy plays: the search's own loop, the copy's renewal, the copy, the deal).
"""
import re
import sys
from collections import defaultdict

names, own = {}, defaultdict(int)
calls = defaultdict(lambda: [0, 0])
cur = cfn = None
pending = None


def name(s):
    m = re.match(r"\((\d+)\)(?: (.*))?", s)
    if not m:
        return s
    if m.group(2) is not None:
        names[m.group(1)] = m.group(2)
    return names[m.group(1)]


with open(sys.argv[1]) as f:
    for line in f:
        if line.startswith("fn="):
            cur = name(line[3:].strip())
        elif line.startswith("cfn="):
            cfn = name(line[4:].strip())
        elif line.startswith("calls="):
            pending = int(line[6:].split()[0])
        elif line[:1] in "0123456789+-*":
            parts = line.split()
            if len(parts) < 2:
                continue
            cost = int(parts[1])
            if pending is not None:
                c = calls[(cur, cfn)]
                c[0] += pending
                c[1] += cost
                pending = None
            else:
                own[cur] += cost


def find(pat):
    hits = [n for n in set(names.values()) if re.search(pat, n)]
    return hits


def incl(fn):
    return own[fn] + sum(v[1] for (a, b), v in calls.items() if a == fn and b != fn)


ANSWER = r"Ismcts as fuda::engine::agent::Agent>::answer$"
RESUME = r"^fuda::engine::resume::<impl fuda::engine::Game>::resume$"
CLONE = r"^<fuda::engine::state::State as core::clone::Clone>::clone_from$"
DEAL = r"^fuda::search::determinize::Deal::redeal$"
(answer,), (resume,), (clone,) = find(ANSWER), find(RESUME), find(CLONE)
deal = find(DEAL)
n, copy = calls[(resume, clone)]
played = sum(v[1] for (a, b), v in calls.items() if a == resume and b != clone)
dealt = sum(v[1] for (a, b), v in calls.items() if b in deal)
fixed = incl(answer) - played + dealt
print(f"playouts {n} copy {copy / n:.0f} deal {dealt / n:.0f} fixed {fixed / n:.0f}"
      f" playout {incl(answer) / n:.0f}")
