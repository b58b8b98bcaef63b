"""Hidden information: nothing Python is given for a player (its view, its
request, its PettingZoo observation) changes when the cards hidden from it
are dealt again among their places; what others see does change."""

import random

import numpy as np
import pytest

import fuda
import fuda.pettingzoo as fp
from conftest import GAMES, random_picks

GAMES_EACH = 4
CHECKS_EACH = 60


@pytest.mark.parametrize("game", GAMES)
def test_views_and_requests_hold_no_hidden_card(rules, game):
    rng = random.Random(3)
    checked = others_changed = 0
    for seed in range(GAMES_EACH):
        g = fuda.Game(rules[game], seed=seed)
        for step in range(CHECKS_EACH):
            if g.done:
                break
            r = g.request()
            p = r["player"]
            views = [g.view(q) for q in range(1, g.players + 1)]
            g._redeal_hidden(p, seed * 1000 + step)
            assert g.request() == r
            assert g.view(p) == views[p - 1]
            others_changed += any(
                g.view(q) != views[q - 1] for q in range(1, g.players + 1) if q != p
            )
            checked += 1
            g.answer(random_picks(r, rng))
    assert checked > 0
    # The deal did move cards others may see: the comparison can fail.
    assert others_changed > 0


@pytest.mark.parametrize("game", GAMES)
def test_observations_hold_no_hidden_card(rules, game):
    env = fp.env(rules[game])
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for step in range(CHECKS_EACH):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        before = env.observe(agent)
        p = int(agent.split("_")[1])
        env.game._redeal_hidden(p, step)
        env._request = env.game.request()
        after = env.observe(agent)
        assert np.array_equal(before["observation"], after["observation"])
        assert np.array_equal(before["action_mask"], after["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(before["action_mask"]))))
