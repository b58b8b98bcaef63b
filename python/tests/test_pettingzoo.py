"""The PettingZoo AEC environments: the API test, and 1,000 random games of each."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import fuda.pettingzoo as fp
from conftest import GAMES

RANDOM_GAMES = 1000


@pytest.mark.parametrize("game", GAMES)
def test_api(rules, game):
    api_test(fp.env(rules[game]), num_cycles=500)


@pytest.mark.parametrize("game", GAMES)
def test_random_policy_plays_1000_games(rules, game):
    env = fp.env(rules[game])
    rng = np.random.default_rng(0)
    wins = np.zeros(env.players)
    for i in range(RANDOM_GAMES):
        env.reset(seed=i)
        steps = 0
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            mask = env.action_mask(agent)
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
            assert steps < 200_000, "a game did not end"
        wins += [env.game.result()["winners"].count(p) for p in range(1, env.players + 1)]
    # Every game was decided and every seat won some.
    assert wins.sum() >= RANDOM_GAMES and (wins > 0).all()


def test_multi_picks_are_single_steps(rules):
    env = fp.env(rules["hyakki"])
    env.reset(seed=0)
    rng = np.random.default_rng(1)
    multi = 0
    while env.agents and multi < 3:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        r = env._request
        mask = env.action_mask(agent)
        if r["max"] > 1:
            multi += 1
            picked = 0
            # Pick one option at a time until max, stopping as soon as allowed half the time.
            while env._request is r:
                mask = env.action_mask(agent)
                assert mask[env.max_options] == (picked >= r["min"])
                assert mask[: len(r["options"])].sum() == len(r["options"]) - picked
                choices = np.flatnonzero(mask)
                env.step(int(rng.choice(choices)))
                picked += 1
            continue
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert multi > 0


def test_rewards_come_from_the_result(rules):
    env = fp.env(rules["t3"])
    env.reset(seed=3)
    rng = np.random.default_rng(2)
    total = {a: 0.0 for a in env.possible_agents}
    while env.agents:
        agent = env.agent_selection
        _, reward, term, trunc, info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.action_mask(agent)))))
    winners = env.game.result()["winners"]
    assert sum(total.values()) == pytest.approx(1.0)
    for p in winners:
        assert total[f"player_{p}"] == pytest.approx(1 / len(winners))
