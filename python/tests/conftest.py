import random

import pytest

import fuda

GAMES = ["shrine", "utage", "hyakki", "landgrab", "t3"]


def random_picks(request, rng):
    """A legal answer drawn at random: `min` to `max` distinct options."""
    k = rng.randint(request["min"], request["max"])
    return sorted(rng.sample(range(len(request["options"])), k))


def play_random(game, rng, limit=100_000):
    """Answers every request at random; the number of answers given."""
    n = 0
    while not game.done:
        assert n < limit, "the game did not end"
        game.answer(random_picks(game.request(), rng))
        n += 1
    return n


@pytest.fixture(scope="session")
def rules():
    return {g: fuda.load(g) for g in GAMES}


@pytest.fixture
def rng():
    return random.Random(7)
