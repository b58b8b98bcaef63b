"""fuda, the declarative card-game engine, from Python.

`Game` steps one game (`request`, `answer`, `view`, `result`, `save`);
`replay` continues a saved one; `sim` plays many in Rust and returns their
rows (a pyarrow Table), `summary` totals them as `fuda sim --json` does,
`report` and `standings` print them as `fuda report` and `fuda tournament` do;
`fuda.pettingzoo` and `fuda.cluster` build on these.
"""

import json

from ._fuda import Game, Rules, games, load, replay, sim
from . import _fuda

__all__ = ["Game", "Rules", "games", "load", "replay", "report", "sim", "standings", "summary"]


def report(rows, cards=None) -> str:
    """The text `fuda report FILE` prints for these rows (a games Table, and
    optionally its cards Table): each variant's win rates with intervals,
    then the per-card table."""
    return _fuda.report_text(json.dumps(rows.to_pylist()), json.dumps(cards.to_pylist() if cards is not None else []))


def standings(rows) -> str:
    """The win matrix and Elo ratings `fuda tournament` prints, from a
    tournament's rows (two-player games, in game order)."""
    return _fuda.standings_text(json.dumps(rows.to_pylist()))


def summary(rows) -> dict:
    """The totals `fuda sim --json` prints, from a run's rows (its speed
    aside): games, wins per seat, win rates over the games that finished,
    shared wins, average turns, games at the turn limit, errors."""
    games = rows.num_rows
    seats = sorted(int(c[1:-4]) for c in rows.column_names if c.startswith("p") and c.endswith("_won"))
    winner = rows.column("winner").to_pylist()
    ended = rows.column("ended").to_pylist()
    turns = rows.column("turns").to_pylist()
    errors = winner.count("error")
    ok = max(games - errors, 1)
    wins = [winner.count(f"P{p}") for p in seats]
    return {
        "games": games,
        "wins": wins,
        "win_rates": [w / ok for w in wins],
        "draws": winner.count("draw"),
        "avg_turns": sum(t for t, w in zip(turns, winner) if w != "error") / ok,
        "turn_limit": ended.count("turn_limit"),
        "errors": errors,
    }
