#!/usr/bin/env python3
"""The search agent's strength: for every game, 2 players, `ismcts:N` (random
rollouts) against random and against the game's first data bot, seats swapped
half the time; win rates with 95% Wilson intervals, as a Markdown table.

A benchmark, not a test. Needs a release build (cargo build --release).
Usage: benches/strength.py [--games 40] [--iters 100,1000] [--procs 2] [--seed 1000]
Each pairing plays --games games (half with the search as P1, half as P2,
`fuda sim --jobs 1` each); --procs simulations run at once. A shared win
counts as half a win. Also prints the search's playouts/s per game.
"""
import argparse, json, math, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("FUDA_BIN", os.path.join(ROOT, "target/release/fuda"))


def games():
    return sorted(f[:-5] for f in os.listdir(os.path.join(ROOT, "rules")) if f.endswith(".yaml"))


def bot(game):
    """The rules' first data bot, from the rules file's `bots:` section."""
    import re
    text = open(os.path.join(ROOT, "rules", game + ".yaml"), encoding="utf-8").read()
    m = re.search(r"^bots:\s*\n((?:[ \t]+.*\n|\s*\n)*)", text, re.M)
    if not m:
        return None
    names = re.findall(r"^  ([A-Za-z_][\w-]*):", m.group(1), re.M)
    return names[0] if names else None


def sim(game, agents, n, seed):
    out = subprocess.run(
        [BIN, "sim", game, "--players", "2", "--agents", ",".join(agents), "--games", str(n),
         "--seed", str(seed), "--jobs", "1", "--json"],
        capture_output=True, text=True)
    if out.returncode not in (0, 1) or not out.stdout.strip():
        raise SystemExit(f"{game} {agents}: {out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def wilson(w, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = w / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def pairing(game, search, opp, n, seed):
    half = n // 2
    a = sim(game, [search, opp], half, seed)
    b = sim(game, [opp, search], n - half, seed + half)
    wins = a["wins"][0] + b["wins"][1]
    draws = a["draws"] + b["draws"]
    errors = a["errors"] + b["errors"]
    rates = [s["search_playouts_per_sec"] for s in (a, b) if s.get("search_playouts_per_sec")]
    return dict(game=game, search=search, opp=opp, n=n, wins=wins, draws=draws, errors=errors,
                rate=sum(rates) / len(rates) if rates else 0.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--iters", default="100,1000")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--only", default="", help="comma-separated games")
    ap.add_argument("--vs", default="both", choices=["random", "bot", "both"],
                    help="the opponents: random, the game's first data bot, or both")
    a = ap.parse_args()
    todo = []
    for g in (a.only.split(",") if a.only else games()):
        opps = (["random"] if a.vs != "bot" else []) + ([bot(g)] if bot(g) and a.vs != "random" else [])
        for it in a.iters.split(","):
            for o in opps:
                todo.append((g, f"ismcts:{it}", o, a.games, a.seed))
    print("| game | search | opponent | games | wins (shared = ½) | win rate | 95% Wilson | playouts/s |")
    print("|---|---|---|---|---|---|---|---|")
    with ThreadPoolExecutor(a.procs) as ex:
        rows = ex.map(lambda t: pairing(*t), todo)
        for r in rows:
            row(r)


def row(r):
    """One table row, printed as soon as its pairing is played."""
    w = r["wins"] + r["draws"] / 2
    lo, hi = wilson(w, r["n"])
    err = f" ({r['errors']} errors)" if r["errors"] else ""
    print(f"| {r['game']} | {r['search']} | {r['opp']} | {r['n']} | {w:g}{err} | "
          f"{w / r['n']:.0%} | {lo:.0%}–{hi:.0%} | {r['rate']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
