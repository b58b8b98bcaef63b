"""`fuda.sim`: rows of many games played in Rust, the totals of `fuda sim`."""

import json
import os
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import fuda

ROOT = Path(__file__).resolve().parents[2]


def fuda_bin():
    """The CLI to compare with: FUDA_BIN (.ci/python sets it), else a built one."""
    for p in [os.environ.get("FUDA_BIN"), ROOT / "target/debug/fuda", ROOT / "target/release/fuda"]:
        if p and Path(p).exists():
            return str(p)
    pytest.fail("no fuda binary: build it (cargo build) or set FUDA_BIN")


@pytest.mark.parametrize("game,agents", [("shrine", ["bigmoney", "random"]), ("t3", None)])
def test_rows_total_to_the_clis_summary(game, agents):
    rows = fuda.sim(game, games=60, agents=agents, seed=5)
    assert isinstance(rows, pa.Table) and rows.num_rows == 60
    assert rows.column("game").to_pylist() == list(range(60))
    assert rows.column("seed").to_pylist() == list(range(5, 65))
    cmd = [fuda_bin(), "sim", game, "--games", "60", "--seed", "5", "--json"]
    if agents:
        cmd += ["--agents", ",".join(agents)]
    cli = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    ours = fuda.summary(rows)
    assert ours == {k: cli[k] for k in ours}


def test_shards_of_a_run_are_the_run_and_jobs_do_not_matter():
    whole = fuda.sim("shrine", games=40, seed=9, swap=True, jobs=2)
    assert whole.column("game").to_pylist() == list(range(80))
    parts = [fuda.sim("shrine", games=40, seed=9, swap=True, shard=(k, 3), jobs=1) for k in range(3)]
    assert pa.concat_tables(parts).equals(whole)
    assert fuda.sim("shrine", games=40, seed=9, swap=True, jobs=1).equals(whole)
    with pytest.raises(ValueError, match="shard"):
        fuda.sim("shrine", games=4, shard=(3, 3))


def test_rows_are_the_rows_of_fuda_sim_out(tmp_path):
    """The same games and cards tables as the command line writes."""
    games, cards = fuda.sim("utage", games=12, seed=4, swap=True, cards=True,
                            options={"decks": "deck_reimu,deck_marisa"})
    out = tmp_path / "rows.parquet"
    subprocess.run([fuda_bin(), "sim", "utage", "--games", "12", "--seed", "4", "--swap", "--cards",
                    "--set", "decks=deck_reimu,deck_marisa", "--out", str(out)],
                   check=True, capture_output=True, text=True)
    cli_games = pq.read_table(out)
    cli_cards = pq.read_table(tmp_path / "rows.cards.parquet")
    assert games.column_names == cli_games.column_names
    assert games.to_pylist() == cli_games.to_pylist()
    assert cards.column_names == cli_cards.column_names
    assert cards.to_pylist() == cli_cards.to_pylist()
    # Each deck played in both seats, and the rows say which deck each seat had.
    assert set(games.column("rotation").to_pylist()) == {0, 1}
    assert {o.split("=")[1] for o in games.column("p1_options").to_pylist()} == {"deck_reimu", "deck_marisa"}
    assert cards.num_rows > 0 and set(cards.column("card").to_pylist()) > set()


def test_bad_agent_is_a_value_error():
    with pytest.raises(ValueError, match="unknown agent"):
        fuda.sim("shrine", games=1, agents=["nobody"])
