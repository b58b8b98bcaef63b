"""The stepping API: requests, answers, views, results, saves, callback seats."""

import json
import random

import pytest

import fuda
from conftest import GAMES, play_random, random_picks


def test_games_lists_the_shipped_games():
    assert set(GAMES) <= set(fuda.games())


def test_unknown_game_is_a_value_error():
    with pytest.raises(ValueError):
        fuda.Game("no_such_game")


@pytest.mark.parametrize("game", GAMES)
def test_random_play_ends_with_a_result(rules, game, rng):
    g = fuda.Game(rules[game], seed=3)
    assert not g.done and g.result() is None
    r = g.request()
    assert r["kind"] in ("pick", "option", "order", "yesno", "window")
    assert 1 <= r["player"] <= g.players
    assert 0 <= r["min"] <= r["max"] <= len(r["options"])
    assert all(isinstance(o["label"], str) for o in r["options"])
    n = play_random(g, rng)
    assert n > 0 and g.done and g.request() is None
    res = g.result()
    assert res["winners"] and all(1 <= w <= g.players for w in res["winners"])
    assert len(res["scores"]) == g.players
    assert res["ended"] in ("rule", "lost", "turn_limit")


def test_same_seed_same_answers_same_game(rules):
    a, b = fuda.Game(rules["shrine"], seed=5), fuda.Game(rules["shrine"], seed=5)
    play_random(a, random.Random(1))
    play_random(b, random.Random(1))
    assert a.result() == b.result() and a.save() == b.save()


def test_illegal_answer_is_refused_and_the_game_goes_on(rules, rng):
    g = fuda.Game(rules["shrine"], seed=1)
    r = g.request()
    with pytest.raises(ValueError):
        g.answer([len(r["options"])])
    with pytest.raises(ValueError):
        g.answer([0] * (r["max"] + 1))
    assert g.request() == r
    play_random(g, rng)
    assert g.done
    with pytest.raises(RuntimeError):
        g.answer([0])


def test_view_is_per_player(rules):
    g = fuda.Game(rules["shrine"], seed=1)
    v1, v2 = g.view(1), g.view(2)
    assert v1["player"] == 1 and v2["player"] == 2
    hand = lambda v, p: next(z for z in v["zones"] if z["zone"] == f"P{p}'s hand")
    assert hand(v1, 1)["cards"] is not None and hand(v1, 2)["cards"] is None
    assert hand(v2, 2)["cards"] is not None and hand(v2, 1)["cards"] is None
    with pytest.raises(ValueError):
        g.view(3)


def test_view_names_the_card_a_card_is_attached_to(rules, rng):
    # utage's supports go on spells and leaders: random play attaches one
    # within a few decisions; its host is named, with its place in its zone.
    g = fuda.Game(rules["utage"], seed=1)
    for _ in range(200):
        zones = [z for z in g.view(2)["zones"] if "hosts" in z]
        if zones:
            break
        g.answer(random_picks(g.request(), rng))
    assert zones, "no card was attached in 200 decisions"
    z = zones[0]
    assert len(z["hosts"]) == len(z["cards"])
    h = next(h for h in z["hosts"] if h is not None)
    assert set(h) == {"zone", "name", "index"}
    # A public host: named, and its place is that of its name in its zone.
    host_zone = next(x for x in g.view(2)["zones"] if x["zone"] == h["zone"])
    assert host_zone["cards"][h["index"]] == h["name"]


@pytest.mark.parametrize("game", GAMES)
def test_save_then_replay_gives_the_same_game(rules, game, rng):
    g = fuda.Game(rules[game], seed=11)
    play_random(g, rng)
    save = g.save()
    assert json.loads(save)["game"] == game
    again = fuda.replay(save)
    assert again.done and again.result() == g.result() and again.save() == save


def test_replay_upto_stops_at_that_decision_and_plays_on(rules, rng):
    g = fuda.Game(rules["shrine"], seed=2)
    for _ in range(40):
        g.answer(random_picks(g.request(), rng))
    at = g.request()
    save = json.loads(g.save())
    assert len(save["answers"]) == 40
    r = fuda.replay(json.dumps(save), upto=40)
    assert not r.done and r.request() == at and r.view(1) == g.view(1)
    short = fuda.replay(json.dumps(save), upto=10)
    assert len(json.loads(short.save())["answers"]) == 10
    play_random(r, rng)
    assert r.done


def test_a_replay_that_diverges_is_an_error(rules, rng):
    g = fuda.Game(rules["shrine"], seed=2)
    for _ in range(5):
        g.answer(random_picks(g.request(), rng))
    save = json.loads(g.save())
    save["answers"][0]["picks"] = [99]
    r = fuda.replay(json.dumps(save))
    assert r.done
    with pytest.raises(RuntimeError, match="diverged"):
        r.result()


def first_picks(r):
    """What the kernel's `first` agent picks."""
    return list(range(min(max(r["min"], 1), r["max"])))


@pytest.mark.parametrize("game", GAMES)
def test_callback_seats_play_as_the_agent_they_copy(rules, game):
    seen = []

    def agent(r):
        seen.append((r["player"], r["view"]["player"]))
        return first_picks(r)

    named = fuda.Game(rules[game], seed=4, agents=["first", "first"])
    called = fuda.Game(rules[game], seed=4, agents=[agent, agent])
    assert named.done and called.done
    assert named.result() == called.result()
    assert seen and all(p == v for p, v in seen)


def test_a_stepped_seat_beside_a_named_agent(rules, rng):
    g = fuda.Game(rules["shrine"], seed=8, agents=[None, "bigmoney"])
    while not g.done:
        r = g.request()
        assert r["player"] == 1
        g.answer(random_picks(r, rng))
    assert g.result()["winners"]


def test_a_failing_callback_stops_the_game_with_its_error(rules):
    def agent(r):
        raise KeyError("boom")

    g = fuda.Game(rules["shrine"], seed=1, agents=[agent])
    with pytest.raises(RuntimeError, match="boom"):
        g.result()


def test_options_and_players(rules):
    with pytest.raises(ValueError):
        fuda.Game(rules["utage"], players=3)
    g = fuda.Game(rules["shrine"], players=3, seed=1)
    assert g.players == 3 and g.view(3)["player"] == 3
    with pytest.raises(ValueError):
        fuda.Game(rules["shrine"], options={"no_such_option": "x"})
