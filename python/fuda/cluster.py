"""Simulations spread over Ray: seed shards (and a sweep's values) as Ray
tasks, each running the Rust simulation in-process, their rows merged into
one table (and, with `out`, one Parquet dataset: a file per task).

Game `i` of a run always has seed `seed + i`, whoever plays it: the rows of
a run split into `shards` are exactly the rows of one run over the same
seeds (`python/tests/test_cluster.py` checks it on a local cluster of two
workers). Ray runs locally by default (`ray.init()`), on a cluster with
`address=` (or `RAY_ADDRESS`); see `docs/python.md`.

    python -m fuda.cluster sim shrine --games 10000 --agents bigmoney,random --shards 16 --out runs/
"""

from __future__ import annotations

import argparse
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

import fuda


def _ray(address=None, num_cpus=None):
    import ray

    if not ray.is_initialized():
        kw = {"address": address} if address else {}
        if num_cpus is not None and not address:
            kw["num_cpus"] = num_cpus
        ray.init(**kw)
    return ray


def shard_ranges(games: int, shards: int) -> list[tuple[int, int]]:
    """The games `0..games` split into `shards` consecutive ranges (first, count)."""
    shards = max(1, min(shards, games or 1))
    base, extra = divmod(games, shards)
    out, first = [], 0
    for k in range(shards):
        n = base + (k < extra)
        out.append((first, n))
        first += n
    return out


def _run_task(kw: dict):
    """One task: a range of one run's games, played in Rust on the task's thread."""
    return fuda.sim(**kw)


def _merged(ray, tasks, out):
    tables = ray.get(tasks)
    if out:
        os.makedirs(out, exist_ok=True)
        for k, t in enumerate(tables):
            pq.write_table(t, os.path.join(out, f"part-{k:05d}.parquet"))
    return pa.concat_tables(tables)


def sim(
    game: str,
    games: int = 100,
    agents: list[str] | None = None,
    seed: int = 0,
    shards: int = 2,
    players: int | None = None,
    options: dict | None = None,
    data: str | None = None,
    out: str | None = None,
    address: str | None = None,
):
    """`fuda.sim` over Ray: the games split into `shards` seed ranges, one
    Ray task each; the merged rows (a pyarrow Table, in game order) are the
    rows of `fuda.sim(game, games, agents, seed)`."""
    ray = _ray(address)
    task = ray.remote(num_cpus=1)(_run_task)
    common = dict(game=game, agents=agents, players=players, options=options, data=data, jobs=1)
    tasks = [
        task.remote(dict(common, games=n, seed=seed, first=first))
        for first, n in shard_ranges(games, shards)
    ]
    return _merged(ray, tasks, out)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m fuda.cluster", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sim", help="many games, split into seed shards")
    s.add_argument("game")
    s.add_argument("--games", type=int, default=100)
    s.add_argument("--agents", default=None, help="comma-separated, as `fuda sim --agents`")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--shards", type=int, default=None, help="Ray tasks (default: the cluster's CPUs)")
    s.add_argument("--players", type=int, default=None)
    s.add_argument("--data", default=None)
    s.add_argument("--out", default=None, help="a folder: the merged rows as a Parquet dataset")
    s.add_argument("--address", default=None, help="a Ray cluster (default: RAY_ADDRESS, else a local Ray)")
    a = ap.parse_args(argv)
    ray = _ray(a.address)
    shards = a.shards or max(1, int(ray.cluster_resources().get("CPU", 1)))
    agents = a.agents.split(",") if a.agents else None
    t = sim(a.game, games=a.games, agents=agents, seed=a.seed, shards=shards,
            players=a.players, data=a.data, out=a.out)
    s = fuda.summary(t)
    print(f"{s['games']} games of {a.game} in {len(shard_ranges(a.games, shards))} Ray tasks")
    for i, (w, r) in enumerate(zip(s["wins"], s["win_rates"])):
        print(f"  P{i + 1} wins {w} ({r * 100:.1f}%)")
    print(f"  shared wins {s['draws']}  average turns {s['avg_turns']:.1f}")
    if s["turn_limit"]:
        print(f"  {s['turn_limit']} game(s) reached the turn limit")
    if s["errors"]:
        print(f"  {s['errors']} game(s) stopped by an error")
    if a.out:
        print(f"rows: {a.out}/ (a Parquet dataset, one file per task)")
    return 1 if s["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
