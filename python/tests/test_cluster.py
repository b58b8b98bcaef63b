"""`fuda.cluster` on a local Ray cluster of two workers: sharded rows are the
rows of one run over the same seeds."""

import json
import subprocess

import pyarrow as pa
import pyarrow.compute
import pyarrow.parquet as pq
import pytest
import ray

import fuda
import fuda.cluster
from test_sim import fuda_bin

# One xdist worker runs this file's tests: one local cluster, started once.
pytestmark = pytest.mark.xdist_group("ray")

@pytest.fixture(scope="module")
def local_ray():
    # Ray gives a starting node 30 s: on a loaded machine, try again (a guard, not a speed test).
    for attempt in range(3):
        try:
            ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
            break
        except Exception:
            ray.shutdown()
            if attempt == 2:
                raise
    yield
    ray.shutdown()


def test_sharded_sim_equals_one_run(local_ray, tmp_path):
    one = fuda.sim("shrine", games=50, agents=["bigmoney", "random"], seed=3)
    out = tmp_path / "rows"
    sharded = fuda.cluster.sim(
        "shrine", games=50, agents=["bigmoney", "random"], seed=3, shards=4, out=str(out)
    )
    assert sharded.equals(one)
    assert len(list(out.glob("*.parquet"))) == 4
    assert pq.read_table(out).sort_by("game").equals(one)
    assert fuda.summary(sharded) == fuda.summary(one)


def test_sweep_gives_each_value_the_rows_of_its_mod(local_ray, tmp_path):
    rows = fuda.cluster.sweep(
        "shrine", "omiki", "cost", [4, 6], games=20, agents=["bigmoney", "random"], seed=2, shards=2
    )
    assert rows.num_rows == 40
    for v in (4, 6):
        mod = tmp_path / f"cost{v}"
        for rel, text in fuda.cluster.sweep_mod("shrine", "omiki", "cost", v).items():
            (mod / rel).parent.mkdir(parents=True, exist_ok=True)
            (mod / rel).write_text(text, encoding="utf-8")
        assert dict(fuda.load("shrine", str(mod)).cards)["omiki"]
        part = rows.filter(pa.compute.equal(rows.column("variant"), f"omiki.cost={v}"))
        one = fuda.sim("shrine", games=20, agents=["bigmoney", "random"], seed=2, data=str(mod))
        assert part.drop_columns(["variant"]).equals(one.drop_columns(["variant"]))
        cli = subprocess.run(
            [fuda_bin(), "sim", "shrine", "--data", str(mod), "--games", "20",
             "--agents", "bigmoney,random", "--seed", "2", "--json"],
            check=True, capture_output=True, text=True,
        )
        summary = json.loads(cli.stdout)
        assert fuda.summary(part) == {k: summary[k] for k in fuda.summary(part)}
    # The same rows as `fuda sweep` (which lays the value over the data in
    # memory, no mod), its games numbered across the values.
    out = tmp_path / "sweep.parquet"
    subprocess.run([fuda_bin(), "sweep", "shrine", "--vary", "omiki.cost=4,6", "--games", "20",
                    "--agents", "bigmoney,random", "--seed", "2", "--out", str(out)],
                   check=True, capture_output=True, text=True)
    cli = pq.read_table(out)
    assert cli.drop_columns(["game"]).to_pylist() == rows.drop_columns(["game"]).to_pylist()
    # The value matters: the two runs differ.
    a, b = (rows.filter(pa.compute.equal(rows.column("variant"), f"omiki.cost={v}")) for v in (4, 6))
    assert a.column("turns") != b.column("turns") or a.column("winner") != b.column("winner")


def test_command_line_sim(local_ray, tmp_path, capsys):
    assert fuda.cluster.main(["sim", "t3", "--games", "6", "--shards", "3", "--out", str(tmp_path)]) == 0
    assert "t3: 6 games" in capsys.readouterr().out
    assert pq.read_table(tmp_path).num_rows == 6


@pytest.mark.parametrize("game,entrants,cli_flags", [
    ("shrine", {"agents": ["bigmoney", "random", "first"]}, ["--agents", "bigmoney,random,first"]),
    ("utage", {"decks": ["deck_reimu", "deck_marisa", "deck_kouma"]}, ["--decks", "deck_reimu,deck_marisa,deck_kouma"]),
])
def test_tournament_is_fuda_tournament(local_ray, tmp_path, game, entrants, cli_flags):
    rows = fuda.cluster.tournament(game, games=6, seed=3, shards=2, **entrants)
    out = tmp_path / "t.parquet"
    cli = subprocess.run([fuda_bin(), "tournament", game, *cli_flags, "--games", "6", "--seed", "3",
                          "--out", str(out)], check=True, capture_output=True, text=True)
    assert rows.to_pylist() == pq.read_table(out).to_pylist()
    # The same win matrix and ratings as the command prints.
    standings = fuda.standings(rows)
    assert "win matrix" in standings and "ratings" in standings
    assert standings in cli.stdout
    with pytest.raises(ValueError, match="two or more entrants"):
        fuda.cluster.tournament(game, agents=["random"])


def test_report_prints_what_fuda_report_prints(tmp_path):
    games, cards = fuda.sim("shrine", games=10, seed=2, agents=["bigmoney", "random"], swap=True, cards=True)
    out = tmp_path / "r.parquet"
    # pyarrow's default codec (snappy), which fuda reads.
    pq.write_table(games, out)
    pq.write_table(cards, tmp_path / "r.cards.parquet")
    assert pq.ParquetFile(out).metadata.row_group(0).column(0).compression == "SNAPPY"
    cli = subprocess.run([fuda_bin(), "report", str(out)], check=True, capture_output=True, text=True)
    assert fuda.report(games, cards) == cli.stdout
