#!/usr/bin/env python3
"""`fuda.sim` from Python against `fuda sim`: the same games (seeds, agents,
one thread) played by the package and by the command, in games per second.
A benchmark, not a test; issue #33 asks for within 5 %.

    .venv-ci/bin/python benches/python_sim.py [--games N] [--reps R] [--fuda target/release/fuda]

Build both first, alike (`cargo build --release`, `pip install ./python`).
The command's figure is its own (`games_per_sec` of plain `--json`: the
games, not the process start or loading the rules); the package's is the wall
time of the call with the rules loaded before, so it includes making the
pyarrow tables. The runs alternate, and the median of each is compared.
"""

import argparse
import json
import statistics
import subprocess
import time

import fuda


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="shrine")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--agents", default="bigmoney")
    ap.add_argument("--fuda", default="target/release/fuda")
    a = ap.parse_args()
    rules = fuda.load(a.game)
    agents = a.agents.split(",")
    cmd = [a.fuda, "sim", a.game, "--games", str(a.games), "--agents", a.agents,
           "--jobs", "1", "--json"]
    py, cli = [], []
    # One of each first, not counted: caches and the rules' compilation.
    fuda.sim(rules, games=min(a.games, 50), agents=agents, jobs=1)
    for _ in range(a.reps):
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        cli.append(json.loads(out.splitlines()[-1])["games_per_sec"])
        t = time.perf_counter()
        fuda.sim(rules, games=a.games, agents=agents, jobs=1)
        py.append(a.games / (time.perf_counter() - t))
    c, p = statistics.median(cli), statistics.median(py)
    print(f"fuda sim (command):  {c:10.1f} games/s  (runs: {', '.join(f'{x:.0f}' for x in cli)})")
    print(f"fuda.sim (Python):   {p:10.1f} games/s  (runs: {', '.join(f'{x:.0f}' for x in py)})")
    print(f"Python / command:    {p / c:10.3f}")


if __name__ == "__main__":
    main()
