"""PettingZoo AEC environments for any fuda game.

`env("utage")` is an `AECEnv` whose agents are `player_1` … `player_N`.

Observations are built generically from the acting player's *view* (exactly
what `Game.view` gives, so nothing hidden from that player), as a flat
float32 vector (`Dict` space: `observation`, `action_mask`):

* who: the observer and the active player, one-hot; the turn number;
* each zone of the view, in the view's order: whether its size is visible,
  its size, then one count per card definition (`Rules.cards` order) of the
  cards it may see there: all of them for an open zone, the piles of a pile
  zone, or only the top card of a zone that shows its top;
* every counter of every player, as the view shows it (0 where hidden);
* the request, for the player who must answer it: its kind (one-hot), min,
  max, picks made so far, and per option slot the card it names (its index
  in `Rules.cards` plus one; 0 for no card or one it may not see) and
  whether it is already picked.

Actions are `Discrete(max_options + 1)`: action `i` picks option `i` of the
request; action `max_options` is "stop" (submit the picks made so far). A
request for `min` to `max` picks is a sequence of single picks: each step
picks one option not yet picked, "stop" is allowed once `min` are picked,
and the answer goes to the game when "stop" is taken or `max` are picked.
An ordering (kind `order`) is the same sequence: the order of the picks is
the order answered. The mask allows exactly the legal next steps.

Rewards come at the end, from the result: a sole winner gets 1, each of `k`
shared winners `1/k`, everyone else 0. A game ending at the rules' turn
limit truncates instead of terminating.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import fuda

KINDS = ("pick", "option", "order", "yesno", "window")


def env(game, **kwargs) -> "FudaEnv":
    """An AEC environment of `game` (a name or a loaded `fuda.Rules`)."""
    return FudaEnv(game, **kwargs)


class FudaEnv(AECEnv):
    metadata = {"name": "fuda", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        game,
        players: int | None = None,
        options: dict | None = None,
        data=None,
        max_options: int = 64,
        render_mode: str | None = None,
    ):
        super().__init__()
        self.rules = game if isinstance(game, fuda.Rules) else fuda.load(game, data)
        self.players = players or self.rules.players[2]
        self.game_options = options
        self.max_options = max_options
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"fuda_{self.rules.game}")
        self.possible_agents = [f"player_{i}" for i in range(1, self.players + 1)]
        cards = self.rules.cards
        self._ncards = len(cards)
        self._card_index = {}
        for i, (cid, name) in enumerate(cards):
            self._card_index.setdefault(cid, i)
            self._card_index.setdefault(name, i)
        self._counters = {
            (f"P{p}", c): (p - 1) * len(self.rules.counters) + j
            for p in range(1, self.players + 1)
            for j, c in enumerate(self.rules.counters)
        }
        # The zones are the same in every game of these rules and players.
        probe = fuda.Game(self.rules, seed=0, players=self.players, options=options)
        self._zones = {z["zone"]: i for i, z in enumerate(probe.view(1)["zones"])}
        del probe
        self._zone_width = 2 + self._ncards
        self._at_zones = 2 * self.players + 1
        self._at_counters = self._at_zones + len(self._zones) * self._zone_width
        self._at_request = self._at_counters + len(self._counters)
        self._size = self._at_request + len(KINDS) + 3 + 2 * max_options
        n = max_options + 1
        self._obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self._size,), np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }
        )
        self._act_space = spaces.Discrete(n)
        self._seed = 0
        self.game = None

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    # -- the game --

    def reset(self, seed=None, options=None):
        """A new game: seeded by `seed`, else the next seed after the last."""
        if seed is not None:
            self._seed = seed
        self.game = fuda.Game(
            self.rules, seed=self._seed, players=self.players, options=self.game_options
        )
        self._seed += 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._picked = []
        self._next()

    def _next(self):
        """Takes in the game's next request, or its end."""
        self._request = self.game.request()
        if self._request is None:
            self._finish()
            return
        r = self._request
        if len(r["options"]) > self.max_options:
            raise ValueError(
                f"{self.rules.game}: a request of {len(r['options'])} options "
                f"({r['prompt']}); make the env with max_options >= that"
            )
        self._picked = []
        self.agent_selection = f"player_{r['player']}"
        if r["max"] == 0:
            self._submit()

    def _submit(self):
        self.game.answer(self._picked)
        self._next()

    def _finish(self):
        result = self.game.result()
        winners = result["winners"]
        truncated = result["ended"] == "turn_limit"
        for a in self.agents:
            p = int(a.split("_")[1])
            self.rewards[a] = 1.0 / len(winners) if p in winners else 0.0
            self.terminations[a] = not truncated
            self.truncations[a] = truncated
            self.infos[a] = {"result": result}
        self.agent_selection = self.agents[0]

    def action_mask(self, agent=None) -> np.ndarray:
        """The legal actions of `agent` (the acting one if None): all 0 for
        an agent not asked."""
        mask = np.zeros(self.max_options + 1, np.int8)
        agent = agent or self.agent_selection
        r = self._request
        if r is None or agent != self.agent_selection:
            return mask
        if len(self._picked) < r["max"]:
            mask[: len(r["options"])] = 1
            mask[self._picked] = 0
        if len(self._picked) >= r["min"]:
            mask[self.max_options] = 1
        return mask

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not self.action_mask(agent)[action]:
            raise ValueError(f"{agent}: action {action} is not legal now (see the action mask)")
        self._cumulative_rewards[agent] = 0
        for a in self.rewards:
            self.rewards[a] = 0.0
        if action == self.max_options:
            self._submit()
        else:
            self._picked.append(int(action))
            if len(self._picked) == self._request["max"]:
                self._submit()
        self._accumulate_rewards()

    # -- what an agent sees --

    def observe(self, agent):
        p = int(agent.split("_")[1])
        v = self.game.view(p)
        o = np.zeros(self._size, np.float32)
        o[p - 1] = 1
        o[self.players + v["active"] - 1] = 1
        o[2 * self.players] = v["turn"]
        idx = self._card_index
        for z in v["zones"]:
            i = self._zones.get(z["zone"])
            if i is None:
                continue
            at = self._at_zones + i * self._zone_width
            if z["size"] is not None:
                o[at] = 1
                o[at + 1] = z["size"]
            at += 2
            if z["cards"] is not None:
                for c in z["cards"]:
                    o[at + idx[c]] += 1
            elif z["piles"] is not None:
                for c, n in z["piles"]:
                    o[at + idx[c]] += n
            elif z["top"] is not None:
                o[at + idx[z["top"]]] += 1
        for who, name, value in v["counters"]:
            o[self._at_counters + self._counters[(who, name)]] = value
        r = self._request
        if r is not None and agent == self.agent_selection:
            at = self._at_request
            o[at + KINDS.index(r["kind"])] = 1
            at += len(KINDS)
            o[at : at + 3] = (r["min"], r["max"], len(self._picked))
            at += 3
            for i, opt in enumerate(r["options"]):
                if opt["card"] is not None:
                    o[at + i] = idx[opt["card"]] + 1
            for i in self._picked:
                o[at + self.max_options + i] = 1
        return {"observation": o, "action_mask": self.action_mask(agent)}

    def render(self):
        if self.game is None:
            return None
        p = int(self.agent_selection.split("_")[1])
        v = self.game.view(p)
        lines = [f"view of P{p}, turn {v['turn']}, P{v['active']} active"]
        lines += [f"  {z['zone']}: {z['cards'] or z['piles'] or z['size']}" for z in v["zones"]]
        if self._request is not None:
            labels = [o["label"] for o in self._request["options"]]
            lines.append(f"  {self._request['prompt']}: {labels}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        self.game = None
