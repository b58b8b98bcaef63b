#!/usr/bin/env python3
"""Decisions per second of shrine played from Python against `fuda sim`
(the same agents in Rust, one thread), and what the parts of a Python step
cost: a bare PyO3 call, a request's and a view's conversion to Python data.
A benchmark, not a test.

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


def rust_rate(a, rules, agent):
    """`fuda sim`'s decisions/s with `agent` in both seats."""
    decisions = sum(
        len(json.loads(fuda.Game(rules, seed=s, agents=[agent, agent]).save())["answers"])
        for s in range(a.games)
    )
    out = subprocess.run(
        [a.fuda, "sim", "shrine", "--games", str(a.games), "--agents", agent,
         "--jobs", "1", "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    return decisions / a.games * json.loads(out.splitlines()[-1])["games_per_sec"]


def per_call(f, n):
    """Seconds per call of f, over n calls."""
    t = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - t) / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--fuda", default="target/release/fuda")
    a = ap.parse_args()
    rules = fuda.load("shrine")
    rust = rust_rate(a, rules, "random")
    rust_first = rust_rate(a, rules, "first")

    # The same games with Rust agents inside the package (the same build of
    # the kernel as the stepped games below, no Python per decision).
    n, t = 0, time.perf_counter()
    for s in range(a.games):
        n += len(json.loads(fuda.Game(rules, seed=s, agents=["random", "random"]).save())["answers"])
    inside = n / (time.perf_counter() - t)

    # Random play, Python picking: a request (converted) and an answer.
    rng, n, t = random.Random(0), 0, time.perf_counter()
    for s in range(a.games):
        g = fuda.Game(rules, seed=s)
        while not g.done:
            r = g.request()
            g.answer(sorted(rng.sample(range(len(r["options"])), rng.randint(r["min"], r["max"]))))
            n += 1
    stepped = n / (time.perf_counter() - t)

    # The trivial answer [0] without reading the request (`first`'s picks
    # where [0] does not fit).
    zero, n, t = [0], 0, time.perf_counter()
    for s in range(a.games):
        g = fuda.Game(rules, seed=s)
        while not g.done:
            try:
                g.answer(zero)
            except ValueError:
                r = g.request()
                g.answer(list(range(max(r["min"], 1))))
            n += 1
    trivial = n / (time.perf_counter() - t)

    # Callback seats: the request and the player's view converted per call.
    calls = [0]

    def first(r):
        calls[0] += 1
        return list(range(min(max(r["min"], 1), r["max"])))

    t = time.perf_counter()
    for s in range(a.games):
        fuda.Game(rules, seed=s, agents=[first, first])
    called = calls[0] / (time.perf_counter() - t)

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

    # The parts, on a game waiting at a request mid-game.
    g = fuda.Game(rules, seed=1)
    for _ in range(30):
        g.answer(zero)
    k = 200_000
    bare = per_call(lambda: g.done, k)
    request = per_call(g.request, k // 10)
    view = per_call(lambda: g.view(1), k // 10)

    us = 1e6
    print(f"fuda sim (Rust, random, 1 thread):   {rust:12.0f} decisions/s  ({us / rust:6.2f} µs)")
    print(f"fuda sim (Rust, first, 1 thread):    {rust_first:12.0f} decisions/s  ({us / rust_first:6.2f} µs)")
    print(f"package, Rust random agents:         {inside:12.0f} decisions/s  ({us / inside:6.2f} µs, incl. a save per game)")
    print(f"Python random (request + answer):    {stepped:12.0f} decisions/s  ({us / stepped:6.2f} µs, {rust / stepped:.1f}x fewer than random)")
    print(f"Python answer([0]) only:             {trivial:12.0f} decisions/s  ({us / trivial:6.2f} µs, {rust_first / trivial:.1f}x fewer than first)")
    print(f"callback seats (request + view):     {called:12.0f} decisions/s  ({us / called:6.2f} µs, {rust_first / called:.1f}x fewer than first)")
    print(f"PettingZoo env (observe + step):     {pz:12.0f} steps/s      ({us / pz:6.2f} µs, {rust / pz:.1f}x fewer than random)")
    print(f"a bare PyO3 call (game.done):        {bare * us:12.3f} µs")
    print(f"game.request() (conversion only):    {request * us:12.3f} µs")
    print(f"game.view(1) (resume + conversion):  {view * us:12.3f} µs")


if __name__ == "__main__":
    main()
