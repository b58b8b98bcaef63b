"""Simulations spread over Ray: seed shards (and a sweep's values) as Ray
tasks, each running the Rust simulation in-process, their rows merged into
one table (and, with `out`, one Parquet dataset: a file per task).

Each task plays one shard of the seeds (`fuda.sim(shard=(k, n))`, as
`fuda sim --shard K/N`), numbering its games as in the whole run: the rows
of a run split into `shards`, concatenated, are exactly the rows of one run (`python/tests/test_cluster.py` checks it on a local cluster of two
workers). Ray runs locally by default (`ray.init()`), on a cluster with
`address=` (or `RAY_ADDRESS`); see `docs/python.md`.

    python -m fuda.cluster sim shrine --games 10000 --agents bigmoney,random --shards 16 --out runs/
    python -m fuda.cluster sweep shrine --vary omiki.cost=4,5,6 --games 2000 --agents bigmoney
    python -m fuda.cluster tournament utage --decks deck_reimu,deck_marisa,deck_kouma --games 1000
"""

from __future__ import annotations

import argparse
import os
import sys

import tempfile

import pyarrow as pa
import pyarrow.compute
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


def _shards(games: int, shards: int) -> list[tuple[int, int]]:
    """`shard=` of each task: (k, n) for k < n, no more shards than games."""
    n = max(1, min(shards, games or 1))
    return [(k, n) for k in range(n)]


def _run_task(kw: dict, mod: dict | None = None, variant: str | None = None):
    """One task: a shard of one run's games, played in Rust on the task's
    thread; with `mod` (its files by path), on that mod, written where the
    task runs (a cluster's nodes share no folder with the driver)."""
    if mod is None:
        t = fuda.sim(**kw)
    else:
        with tempfile.TemporaryDirectory(prefix="fuda-sweep-") as d:
            for rel, text in mod.items():
                path = os.path.join(d, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
            t = fuda.sim(**dict(kw, data=d))
    if variant is not None:
        t = tuple(_labelled(x, variant) for x in t) if isinstance(t, tuple) else _labelled(t, variant)
    return t


def _labelled(t, variant):
    """Rows whose `variant` column names the sweep's value."""
    return t.set_column(t.schema.get_field_index("variant"), "variant",
                        pa.array([variant] * t.num_rows, pa.string()))


def sweep_mod(game: str, card: str, prop: str, value) -> dict:
    """A mod of the shipped `game` in which `card`'s property `prop` is
    `value`: its files by path (`mod.yaml`, `cards/<card>.yaml`), the card
    copied from the file it is written in with that one property changed."""
    import yaml

    path, text = fuda.load(game).card_source(card)
    doc = yaml.safe_load(text)
    cards = doc if isinstance(doc, list) else [doc]
    found = next((c for c in cards if isinstance(c, dict) and c.get("id") == card), None)
    if found is None:
        raise ValueError(f"{path} does not hold card {card!r} as a mapping")
    found = dict(found, props=dict(found.get("props") or {}, **{prop: value}))
    manifest = {"extends": game, "name": f"{card}.{prop}={value}", "replace": [card]}
    return {
        "mod.yaml": yaml.safe_dump(manifest, allow_unicode=True, sort_keys=False),
        f"cards/{card}.yaml": yaml.safe_dump(found, allow_unicode=True, sort_keys=False),
    }


def _merged(ray, tasks, out, cards):
    """The tasks' rows in task order; with `cards`, the games' and the cards'
    (written as `out/part-K.parquet` and `out/cards/part-K.parquet`)."""
    results = ray.get(tasks)
    parts = [(r, None) if not cards else r for r in results]
    if out:
        os.makedirs(os.path.join(out, "cards") if cards else out, exist_ok=True)
        for k, (g, c) in enumerate(parts):
            pq.write_table(g, os.path.join(out, f"part-{k:05d}.parquet"))
            if cards:
                pq.write_table(c, os.path.join(out, "cards", f"part-{k:05d}.parquet"))
    games = pa.concat_tables([g for g, _ in parts])
    return (games, pa.concat_tables([c for _, c in parts])) if cards else games


def sim(
    game: str,
    games: int = 100,
    agents: list[str] | None = None,
    seed: int = 1,
    shards: int = 2,
    swap: bool = False,
    cards: bool = False,
    players: int | None = None,
    options: dict | None = None,
    data: str | None = None,
    out: str | None = None,
    address: str | None = None,
):
    """`fuda.sim` over Ray: the seeds split into `shards` blocks, one Ray
    task each; the merged rows (in game order) are the rows of
    `fuda.sim(game, games, agents, seed, swap=swap, cards=cards)`: a pyarrow
    Table, or with `cards` the pair (games, cards)."""
    ray = _ray(address)
    task = ray.remote(num_cpus=1)(_run_task)
    common = dict(game=game, games=games, agents=agents, seed=seed, swap=swap, cards=cards,
                  players=players, options=options, data=data, jobs=1)
    tasks = [task.remote(dict(common, shard=s)) for s in _shards(games, shards)]
    return _merged(ray, tasks, out, cards)


def sweep(
    game: str,
    card: str,
    prop: str,
    values: list,
    games: int = 100,
    agents: list[str] | None = None,
    seed: int = 1,
    shards: int = 2,
    swap: bool = False,
    cards: bool = False,
    players: int | None = None,
    options: dict | None = None,
    out: str | None = None,
    address: str | None = None,
):
    """A sweep of one card property of a shipped game: for each value, a mod
    with that value ([`sweep_mod`]) played over the same seeds, each value
    split into `shards` Ray tasks. The rows of all values, with a `variant`
    column (`card.prop=value`); each value's rows are those of
    `fuda sim --data MOD` over the seeds."""
    ray = _ray(address)
    task = ray.remote(num_cpus=1)(_run_task)
    common = dict(game=game, games=games, agents=agents, seed=seed, swap=swap, cards=cards,
                  players=players, options=options, jobs=1)
    tasks = [
        task.remote(dict(common, shard=s), sweep_mod(game, card, prop, v), f"{card}.{prop}={v}")
        for v in values
        for s in _shards(games, shards)
    ]
    return _merged(ray, tasks, out, cards)


def tournament(
    game: str,
    agents: list[str] | None = None,
    decks: list[str] | None = None,
    games: int = 100,
    seed: int = 1,
    shards: int = 2,
    deck_option: str = "decks",
    options: dict | None = None,
    data: str | None = None,
    out: str | None = None,
    address: str | None = None,
):
    """`fuda tournament` over Ray: every pair of entrants (agents, decks, or
    both, as `--agents`/`--decks`) plays the seeds in both seatings, each
    pair's seeds split into `shards` tasks. The merged rows are those of
    `fuda tournament … --out` (the same games, numbers, order and entrant
    names), so `fuda.standings(rows)` prints its win matrix and ratings."""
    agents, decks = list(agents or []), list(decks or [])
    n = max(len(agents), len(decks))
    if n < 2 or (len(agents) > 1 and len(decks) > 1 and len(agents) != len(decks)):
        raise ValueError("a tournament needs two or more entrants: agents=[…] and/or decks=[…] "
                         "(as many of each, or one to share)")

    def entrant(i):
        agent = agents[i] if i < len(agents) else (agents[0] if agents else None)
        deck = decks[i] if i < len(decks) else None
        label = deck if deck and len(agents) <= 1 else f"{agent}+{deck}" if deck else agent
        return agent, deck, label

    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    ray = _ray(address)
    task = ray.remote(num_cpus=1)(_run_task)
    tasks = []
    for i, j in pairs:
        (ai, di, _), (aj, dj, _) = entrant(i), entrant(j)
        opts = dict(options or {})
        if di and dj:
            opts[deck_option] = f"{di},{dj}"
        names = [ai, aj] if ai and aj else None
        kw = dict(game=game, games=games, agents=names, seed=seed, swap=True, players=2,
                  options=opts, data=data, jobs=1)
        tasks += [task.remote(dict(kw, shard=s)) for s in _shards(games, shards)]
    parts = ray.get(tasks)
    per = len(_shards(games, shards))
    tables = []
    for p, (i, j) in enumerate(pairs):
        t = pa.concat_tables(parts[p * per:(p + 1) * per])
        # As one run of every pairing: seed by seed, each pair in both seatings.
        g = t.column("game").to_pylist()
        t = t.set_column(0, "game", pa.array([k // 2 * 2 * len(pairs) + 2 * p + k % 2 for k in g], pa.int64()))
        labels = [entrant(i)[2], entrant(j)[2]]
        rot = t.column("rotation").to_pylist()
        for seat in (0, 1):
            col = t.schema.get_field_index(f"p{seat + 1}_entrant")
            t = t.set_column(col, f"p{seat + 1}_entrant",
                             pa.array([labels[(seat + r) % 2] for r in rot], pa.string()))
        tables.append(t)
    rows = pa.concat_tables(tables).sort_by("game")
    if out:
        os.makedirs(out, exist_ok=True)
        pq.write_table(rows, os.path.join(out, "part-00000.parquet"))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m fuda.cluster", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sim", help="many games, split into seed shards")
    w = sub.add_parser("sweep", help="one card property over values, each split into seed shards")
    w.add_argument("--vary", required=True, help="CARD.PROP=V1,V2,… (a card of a shipped game)")
    t = sub.add_parser("tournament", help="every pair of entrants, seats swapped, split into seed shards")
    t.add_argument("--decks", default=None, help="comma-separated deck ids, as `fuda tournament --decks`")
    for p in (s, t):
        p.add_argument("--data", default=None)
    for p in (s, w, t):
        p.add_argument("game")
        p.add_argument("--games", type=int, default=100)
        p.add_argument("--agents", default=None, help="comma-separated, as `fuda sim --agents`")
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--shards", type=int, default=None, help="Ray tasks per run (default: the cluster's CPUs)")
        p.add_argument("--players", type=int, default=None)
        p.add_argument("--out", default=None, help="a folder: the merged rows as a Parquet dataset")
        p.add_argument("--address", default=None, help="a Ray cluster (default: RAY_ADDRESS, else a local Ray)")
    a = ap.parse_args(argv)
    ray = _ray(a.address)
    shards = a.shards or max(1, int(ray.cluster_resources().get("CPU", 1)))
    agents = a.agents.split(",") if a.agents else None
    if a.cmd == "tournament":
        t = tournament(a.game, agents=agents, decks=a.decks.split(",") if a.decks else None,
                       games=a.games, seed=a.seed, shards=shards, data=a.data, out=a.out)
        print(fuda.standings(t), end="")
    elif a.cmd == "sweep":
        target, _, vals = a.vary.partition("=")
        card, _, prop = target.partition(".")
        if not (card and prop and vals):
            ap.error("--vary wants CARD.PROP=V1,V2,…")
        values = [int(v) if v.lstrip("-").isdigit() else v for v in vals.split(",")]
        t = sweep(a.game, card, prop, values, games=a.games, agents=agents, seed=a.seed,
                  shards=shards, players=a.players, out=a.out)
        for v in values:
            label = f"{card}.{prop}={v}"
            _print_summary(label, fuda.summary(t.filter(pa.compute.equal(t.column("variant"), label))))
    else:
        t = sim(a.game, games=a.games, agents=agents, seed=a.seed, shards=shards,
                players=a.players, data=a.data, out=a.out)
        _print_summary(f"{a.game}", fuda.summary(t))
    if a.out:
        print(f"rows: {a.out}/ (a Parquet dataset, one file per task)")
    return 1 if fuda.summary(t)["errors"] else 0


def _print_summary(label, s):
    rates = "  ".join(f"P{i + 1} {r * 100:.1f}%" for i, r in enumerate(s["win_rates"]))
    print(f"{label}: {s['games']} games  wins {rates}  shared {s['draws']}  "
          f"average turns {s['avg_turns']:.1f}  errors {s['errors']}")


if __name__ == "__main__":
    sys.exit(main())
