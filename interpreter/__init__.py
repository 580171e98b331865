"""kotc: a card game's rules, edition by edition, as data.

The names a program needs, importable from here::

    from kotc import Game, RandomAgent, starter_decks

    edition = EDITION  # a shipped edition: one of the names `kotc editions` lists
    game = Game.new(edition, starter_decks(edition), seed=1)
    bots = [RandomAgent(1), RandomAgent(2)]
    while not game.is_over:
        game.apply(bots[game.current_player].act(game))
    print(game.result)

`load_edition` reads a shipped edition or a rule file into a plain `Ruleset`;
`Engine` compiles one with a card pool (shared by the games that use it); `Game`
is one game: `legal_actions()`, `apply(action)`, `view(seat)`, `clone()`,
`to_json()`. Subpackages, lowest first: `kotc.dsl` (the rules language),
`kotc.runtime`, `kotc.compiler` and `kotc.flowgraph`, `kotc.engine`, `kotc.play`,
`kotc.checking` and `kotc.bots` (integer actions, observations, explicit chance,
fair copies), and `kotc.cli` (the command); `kotc.openspiel` and
`kotc.pettingzoo` adapt `kotc.bots` to those frameworks (`pip install
'kotc[bots]'`).
"""

from kotc.dsl import Diagnostic, Ruleset, RulesetError, load_edition
from kotc.engine.decks import deck_from_file, default_decks, starter_decks, vanilla_deck
from kotc.engine.game import Deck, Engine, Game, card_pool
from kotc.flowgraph.build import compile_ruleset
from kotc.flowgraph.flow import FlowGraph
from kotc.play.agents import FirstLegalAgent, RandomAgent, ScriptedAgent, play
from kotc.runtime.actions import Action, Decision, IllegalAction
from kotc.runtime.events import Event

__all__ = [
    "Action", "Decision", "Deck", "Diagnostic", "Engine", "Event", "FirstLegalAgent",
    "FlowGraph", "Game", "IllegalAction", "RandomAgent", "Ruleset", "RulesetError",
    "ScriptedAgent", "card_pool", "compile_ruleset", "deck_from_file", "default_decks",
    "load_edition", "play", "starter_decks", "vanilla_deck",
]
