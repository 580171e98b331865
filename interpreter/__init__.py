"""kotc interpreter: compile an edition's rules into a flow graph and work with it.

`compile_ruleset(load_edition(name))` gives a `FlowGraph` (networkx inside);
`check_flow` finds flows that cannot be played; `to_dot` draws one;
`diff_rulesets` says what changed between two editions. `Game.new(ruleset,
decks, seed)` plays the edition: `legal_actions()`, `apply(action)`, `result`.
The command line lives in `interpreter.cli`; it is the only module that prints.
"""

from .compile import compile_ruleset
from .diff import diff_rulesets
from .flow import FlowGraph, Step
from .game import Deck, Engine, Game
from .graph_checks import check_flow, check_ruleset
from .render import to_dot

__all__ = [
    "Deck", "Engine", "FlowGraph", "Game", "Step", "check_flow", "check_ruleset",
    "compile_ruleset", "diff_rulesets", "to_dot",
]
