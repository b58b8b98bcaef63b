"""fuda, the declarative card-game engine, from Python.

`Game` steps one game (`request`, `answer`, `view`, `result`, `save`);
`replay` continues a saved one; `sim` plays many in Rust and returns their
rows; `fuda.pettingzoo` and `fuda.cluster` build on these.
"""

from ._fuda import Game, Rules, games, load, replay

__all__ = ["Game", "Rules", "games", "load", "replay"]
