"""`fuda.sim`: rows of many games played in Rust, the totals of `fuda sim`."""

import json
import os
import subprocess
from pathlib import Path

import pyarrow as pa
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


def test_ranges_of_a_run_are_the_run_and_jobs_do_not_matter():
    whole = fuda.sim("shrine", games=40, seed=9, jobs=2)
    parts = [fuda.sim("shrine", games=n, seed=9, first=f, jobs=1) for f, n in [(0, 13), (13, 20), (33, 7)]]
    assert pa.concat_tables(parts).equals(whole)
    assert fuda.sim("shrine", games=40, seed=9, jobs=1).equals(whole)


def test_bad_agent_is_a_value_error():
    with pytest.raises(ValueError, match="unknown agent"):
        fuda.sim("shrine", games=1, agents=["nobody"])
