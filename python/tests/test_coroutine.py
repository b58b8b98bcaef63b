"""Games stepped on the caller's thread, each on a coroutine: many games
interleaved on one thread keep their own kernel state (the script call a
decision waits in, its budgets), a game dropped mid-game is freed, and a
`Game` stays on the thread that made it."""

import gc
import json
import random
import threading

import pytest

import fuda
from conftest import play_random, random_picks

# A game whose every turn is one Rhai call that asks twice and writes to
# the game after each answer: a script that read another game's state (the
# game a script runs against is a thread-local) would change the results.
RULES = """
name: mid
players: {min: 2, max: 2, default: 2}
counters:
  n: {start: 0}
zones:
  deck: {per: player, contents: hidden}
setup: "n = 0"
scripts: [s.rhai]
turn:
  phases:
    - name: ask
      do: |
        n += ask()
end:
  if: "false"
score: "n"
max_turns: 12
"""

SCRIPT = """
fn ask() {
    let a = choose_option(["x", "yy", "zzz"], "first");
    let p = players()[0];
    p.n += a.len();
    let b = choose_option(["x", "yy"], "second");
    let q = players()[1];
    q.n += b.len() * p.n;
    a.len() * 10 + b.len()
}

// About 1.15M operations before its decision and as many after: over the
// 2M a call may run, counted across the decision.
fn heavy() {
    let s = "0123456789abcdef";
    while s.len() < 65536 { s += s; }
    let n = 0;
    while n < 70 { n += s.len() - 65535; }
    let a = choose_option(["x", "yy"], "between");
    while n < 140 { n += s.len() - 65535; }
    n
}
"""


@pytest.fixture(scope="module")
def mid(tmp_path_factory):
    data = tmp_path_factory.mktemp("mid")
    (data / "rules").mkdir()
    (data / "rules" / "mid.yaml").write_text(RULES)
    (data / "rules" / "s.rhai").write_text(SCRIPT)
    heavy = RULES.replace("name: mid", "name: heavy").replace("n += ask()", "n += heavy()")
    (data / "rules" / "heavy.yaml").write_text(heavy)
    return fuda.load("mid", data=str(data)), fuda.load("heavy", data=str(data))


def interleaved(games, rngs):
    """Steps the games a decision each in turn until all are done."""
    while not all(g.done for g in games):
        for g, rng in zip(games, rngs):
            if not g.done:
                g.answer(random_picks(g.request(), rng))


def test_interleaved_games_are_the_games_played_alone(mid):
    rules = mid[0]
    alone = []
    for seed in (1, 2, 3):
        g = fuda.Game(rules, seed=seed)
        play_random(g, random.Random(seed))
        alone.append((g.result(), g.save()))
    games = [fuda.Game(rules, seed=s) for s in (1, 2, 3)]
    interleaved(games, [random.Random(s) for s in (1, 2, 3)])
    assert [(g.result(), g.save()) for g in games] == alone
    # Answers were asked inside the script, twice a turn, and it wrote on.
    assert len(json.loads(alone[0][1])["answers"]) == 24
    assert alone[0][0]["scores"] != alone[1][0]["scores"] or alone[0][1] != alone[1][1]


def test_the_operation_budget_of_a_call_holds_across_interleaved_decisions(mid):
    heavy = mid[1]
    games = [fuda.Game(heavy, seed=s) for s in (1, 2)]
    interleaved(games, [random.Random(s) for s in (1, 2)])
    for g in games:
        # Each call is stopped at its first decision's turn: a meter shared
        # by the two would let one of them run on.
        assert len(json.loads(g.save())["answers"]) == 1
        with pytest.raises(RuntimeError, match="more than 2000000 operations"):
            g.result()


def test_a_game_dropped_mid_game_is_freed(rules):
    rng = random.Random(3)
    for seed in range(40):
        g = fuda.Game(rules["shrine"], seed=seed)
        for _ in range(5):
            g.answer(random_picks(g.request(), rng))
        g.view(1)
        del g
    gc.collect()
    # Dropped in a callback's request too, and dropped unstarted.
    g = fuda.Game(rules["shrine"], seed=1, agents=[None, lambda r: 0])
    del g
    g = fuda.Game(rules["utage"], seed=2)
    play_random(g, rng)
    assert g.done


def test_a_game_belongs_to_its_thread(rules):
    g = fuda.Game(rules["shrine"], seed=1)
    errors = []

    def other():
        try:
            g.request()
        except RuntimeError as e:
            errors.append(str(e))

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert errors and "thread that made it" in errors[0]
    play_random(g, random.Random(1))
    assert g.done


def test_games_on_many_threads_each_play_their_own(rules):
    results = {}

    def play(seed):
        g = fuda.Game(rules["shrine"], seed=seed)
        play_random(g, random.Random(seed))
        results[seed] = g.save()

    threads = [threading.Thread(target=play, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in range(4):
        g = fuda.Game(rules["shrine"], seed=s)
        play_random(g, random.Random(s))
        assert g.save() == results[s]
