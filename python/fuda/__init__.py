"""fuda, the declarative card-game engine, from Python.

`Game` steps one game (`request`, `answer`, `view`, `result`, `save`);
`replay` continues a saved one; `sim` plays many in Rust and returns their
rows (a pyarrow Table), `summary` totals them as `fuda sim --json` does;
`fuda.pettingzoo` and `fuda.cluster` build on these.
"""

from ._fuda import Game, Rules, games, load, replay, sim

__all__ = ["Game", "Rules", "games", "load", "replay", "sim", "summary"]


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
