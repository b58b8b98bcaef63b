#!/usr/bin/env python3
"""Decisions per second of random shrine play: stepped from Python (the
stepping API, and the PettingZoo env with an observation per step) against
`fuda sim` (random agents in Rust, one thread). A benchmark, not a test.

    .venv-ci/bin/python benches/python_speed.py [--games N] [--fuda target/release/fuda]

Build both first: `cargo build --release` and `pip install ./python`. The
decisions of a `fuda sim` game are counted exactly: the same seeds and
agents played by the package in Rust (`agents=["random", "random"]`) and
saved, each answer one decision.
"""

import argparse
import json
import random
import subprocess
import time

import numpy as np

import fuda
import fuda.pettingzoo as fp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--fuda", default="target/release/fuda")
    a = ap.parse_args()
    rules = fuda.load("shrine")

    decisions = sum(
        len(json.loads(fuda.Game(rules, seed=s, agents=["random", "random"]).save())["answers"])
        for s in range(a.games)
    )
    out = subprocess.run(
        [a.fuda, "sim", "shrine", "--games", str(a.games), "--agents", "random",
         "--jobs", "1", "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    rust = decisions / a.games * json.loads(out.splitlines()[-1])["games_per_sec"]

    rng, n, t = random.Random(0), 0, time.perf_counter()
    for s in range(a.games):
        g = fuda.Game(rules, seed=s)
        while not g.done:
            r = g.request()
            g.answer(sorted(rng.sample(range(len(r["options"])), rng.randint(r["min"], r["max"]))))
            n += 1
    stepped = n / (time.perf_counter() - t)

    env, npr, n, t = fp.env(rules), np.random.default_rng(0), 0, time.perf_counter()
    for s in range(a.games):
        env.reset(seed=s)
        while env.agents:
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(npr.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
    pz = n / (time.perf_counter() - t)

    print(f"fuda sim (Rust, random, 1 thread): {rust:12.0f} decisions/s")
    print(f"Python stepping (request/answer):  {stepped:12.0f} decisions/s  ({rust / stepped:.1f}x fewer)")
    print(f"PettingZoo env (observe + step):   {pz:12.0f} steps/s      ({rust / pz:.1f}x fewer)")


if __name__ == "__main__":
    main()
