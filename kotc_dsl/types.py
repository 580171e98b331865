"""The type system of the effect language: value types, attributes, built-ins.

Types are plain strings. A card type name (`minion`, `creature`) used as a
parameter type means `card`. Collections: `cards`, `players`, `dice`, `ints`;
`zone` is a player's zone, usable wherever `cards` is and as a move destination.
"""

from __future__ import annotations

BASE_TYPES = frozenset(
    {
        "int",
        "bool",
        "player",
        "players",
        "card",
        "cards",
        "die",
        "dice",
        "counter",
        "ability",
        "stat",
        "victim",  # a player or a card
    }
)

# What a value of a type accepts in its place: `card` where `cards` is wanted, etc.
SUBTYPES = {
    "cards": {"cards", "zone", "card"},
    "players": {"players", "player"},
    "dice": {"dice", "die"},
    "victim": {"victim", "player", "card"},
}

ELEMENT = {
    "cards": "card",
    "zone": "card",
    "players": "player",
    "dice": "die",
    "ints": "int",
    "victims": "victim",
}

# The implicit name of an element inside `collection where <cond>`.
ELEMENT_NAME = {
    "card": "card", "player": "player", "die": "die", "int": "value", "victim": "victim"
}

PLAYER_ATTRS = {
    "hp": "int",
    "eliminated": "bool",
    "decked_out": "bool",
    "agreed": "bool",
    "left": "player",
}
CARD_ATTRS = {
    "owner": "player",
    "controller": "player",
    "last_controller": "player",
    "exhausted": "bool",
    "fatigued": "bool",
    "fatigued_turn": "int",
    "face_up": "bool",
    "pawn": "bool",
    "ultra_points": "int",
}
CONTEXT_ATTRS = {
    "game": {
        "turn": "int",
        "first_player": "player",
        "phase": "phase",
        "step": "step",
        "first_turn": "bool",
        # and the lists the rules keep (`keep victims per phase`: GAME_LISTS)
    },
    "chain": {
        "length": "int",
        "open": "bool",
        "resolving": "bool",
        "last_actor": "player",
    },
    # and the fields of its record (`record` in the battle section)
    "battle": {"ongoing": "bool"},
    "die": {"value": "int", "roller": "player"},
    "dice": {"value": "ints"},
    # a player controls and owns itself
    "victim": {"controller": "player", "owner": "player", "last_controller": "player"},
    "ability": {"card": "card"},
}

# Every event carries these besides its own parameters.
EVENT_COMMON = {"actor": "player", "source": "card", "as_cost": "bool", "within": "cause"}

# Events raised by the engine's primitives, with their fields.
BUILTIN_EVENTS = {
    "rolled": {"die": "die", "roller": "player"},
    "chaining_action": {"actor": "player"},
    "enlisted": {"target": "card"},
    "moved": {"target": "card"},
}

# The event log's kinds as the engine writes them, with their fields and what each
# field holds (a player, a card, a victim: a player or a card, or a plain value). An
# edition's own events (its `events` section: `decked_out`, `agreed`...) come with
# the parameters it declares. `kotc test --log` prints a run's log in these words,
# and a test keeps this table true to what the engine logs. A program
# records one with `log` (its fields in order).
LOG_EVENTS: dict[str, dict[str, str]] = {
    "action": {"player": "player", "action": "text"},
    "activate": {"player": "player", "card": "card", "ability": "value"},
    "attack": {"attacker": "player", "team": "cards", "victim": "victim"},
    "attack_waits": {"victim": "victim", "team": "cards"},
    "battle_end": {},
    "cannot_perform": {"action": "text"},
    "decide": {"player": "player", "action": "text", "choice": "text"},
    "defend": {"defender": "player", "team": "cards"},
    "eliminated": {"player": "player", "reason": "text"},
    "enlist": {"card": "card"},
    "first_player": {"player": "player"},
    "forced_attack": {"attacker": "player", "victim": "victim"},
    "formation": {"team": "cards"},
    "game_over": {"winner": "player", "tied": "players", "criterion": "text",
                  "condition": "text"},
    "give": {"card": "card", "to": "player"},
    "interrupted": {"player": "player", "action": "text"},
    "hp": {"player": "player", "hp": "value", "change": "value"},
    "link": {"player": "player", "link": "value"},
    "move": {"card": "card", "name": "text", "to": "text", "player": "player"},
    "negate": {"cards": "cards"},
    "no_battle": {"reason": "text"},
    "pawn": {"card": "card", "player": "player", "stats": "value"},
    "pay": {"player": "player", "resources": "value", "hp": "value"},
    "perform": {"player": "player", "action": "text"},
    "phase": {"phase": "text", "player": "player"},
    "place": {"card": "card", "counter": "text", "n": "value", "by": "player"},
    "pop": {"card": "card", "counter": "text", "player": "player"},
    "prevent": {"event": "text"},
    "removed": {"card": "card", "name": "text"},
    "reroll": {"die": "value", "value": "value"},
    "resolve": {"link": "value", "player": "player"},
    "reveal": {"cards": "cards"},
    "roll": {"player": "player", "dice": "value"},
    "roll_off": {"totals": "value"},
    "see": {"player": "player", "cards": "cards"},
    "shuffle": {"player": "player", "zone": "text"},
    "skip": {"phase": "text", "step": "text"},
    "stat": {"card": "card", "stat": "text", "value": "value"},
    "stop": {"activating": "value"},
    "turn": {"turn": "value", "player": "player"},
    "turn_lost": {"player": "player"},
    "victim": {"victim": "victim"},
    "withdraw": {"card": "card"},
    "zombie": {"player": "player"},
}

# The names every program may use, and what each is.
GLOBAL_NAMES = {
    "you": "player",
    "active": "player",
    "players": "players",
    "game": "game",
    "chain": "chain",
    "battle": "battle",
}

# The counter name that stands for counters of every kind (`strip x any from c`,
# `counters_on(c, any)`): the 11th to 13th rulebooks put "no restriction on how any
# counter ... can be removed for an activation cost or by a card effect".
ANY_COUNTER = "any"

# Built-in functions: name -> (parameter types, result type).
FUNCTIONS = {
    "count": (("any_collection",), "int"),
    "total": (("ints",), "int"),
    "top": (("int", "cards"), "cards"),
    "bottom": (("int", "cards"), "cards"),
    "max": (("int", "int"), "int"),
    "min": (("int", "int"), "int"),
    "half_up": (("int",), "int"),
    "is_empty": (("cards",), "bool"),
    "cost": (("card",), "int"),
    "placed_by": (("card", "counter", "player"), "int"),
    "counters_on": (("card", "counter"), "int"),
    "left_of": (("player",), "player"),
    "tagged": (("card", "tag"), "bool"),
    "enemies": (("player",), "players"),
    # the first item of a list (none, of an empty one)
    "first": (("any_collection",), "any"),
    # the dice a team rolls: one per point of the battle section's `dice_per` stat
    "dice_for": (("cards",), "int"),
    # whether the battle under way has gone past a step or a part of its steps
    "past": (("step",), "bool"),
    # whether a card is printed with a caveat (a `caveat` phrase)
    "has_caveat": (("card", "caveat"), "bool"),
    # the number a card's caveat prints for [x] (0: the card has no such caveat)
    "caveat_x": (("card", "caveat"), "int"),
    # two lists joined, repeats kept (a player and a card are told apart)
    "concat": (("any_collection", "any_collection"), "any"),
    # whether a card has been in a zone in play, under its controller, since that
    # player's latest turn began (false for a card in no zone in play)
    "since_turn_start": (("card",), "bool"),
}

# The types a record's field may have (its first value: none, an empty list, false).
RECORD_TYPES = frozenset({"player", "victim", "card", "cards", "dice", "bool", "int"})

# The fields the engine's battle keeps (`kotc.runtime.state.Battle`): a battle's
# record may declare these and no others, since nothing would keep another.
BATTLE_FIELDS = frozenset({
    "attacker", "defender", "victim", "attack_team", "defense_team", "attack_dice",
    "defense_dice", "forced",
})

# The lists the engine's game keeps (`kotc.engine.game.Game`), each with its type:
# a ruleset keeps those it declares (`keep victims per phase`), which programs read
# and add to (`game.victims`: who has been declared a victim since the phase began).
GAME_LISTS = {"victims": "victims"}

# The sub-flows a program may wait for (`after chain { ... }`); a battle is also
# begun by a program (`begin battle with ...`), a chain as an ability resolves.
FLOWS = ("chain", "battle")

# Language constructs a glossary term may name instead of a definition.
BUILTIN_CONSTRUCTS = frozenset(
    {
        "you",
        "owner",
        "controller",
        "choose",
        "choose_exactly",
        "choose_player",
        "choose_by_opponent",
        "choose_up_to",
        "for_each",
        "reveal",
        "see",
        "batch",
        "counter",
        "it",
        "damage",
        "enlist",
        "attack",
        "defend",
        "targeted",
        "exhaust",
        "fatigue",
        "negate",
        "remove",
    }
)


def accepts(wanted: str, given: str) -> bool:
    """Whether a value of type `given` may stand where `wanted` is expected."""
    if wanted == given or given == "none" or wanted == "any":
        return True
    if wanted == "any_collection":
        return given in ELEMENT
    if wanted == "ints" and given in ("dice", "die"):
        return True
    return given in SUBTYPES.get(wanted, ())


def collection_of(t: str) -> str | None:
    """The element type of a collection type, or None."""
    return ELEMENT.get(t)
