"""`fuda.cluster` on a local Ray cluster of two workers: sharded rows are the
rows of one run over the same seeds."""

import pyarrow.parquet as pq
import pytest
import ray

import fuda
import fuda.cluster

@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_shard_ranges_cover_the_games_once():
    assert fuda.cluster.shard_ranges(10, 3) == [(0, 4), (4, 3), (7, 3)]
    assert fuda.cluster.shard_ranges(2, 5) == [(0, 1), (1, 1)]


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
