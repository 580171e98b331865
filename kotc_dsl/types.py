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
    # the players and minions a battle this player starts now may have as victim
    "victims": (("player",), "victims"),
    # the minions this player may enlist into a team now
    "enlistable": (("player",), "cards"),
    # the first item of a list (none, of an empty one)
    "first": (("any_collection",), "any"),
    # the dice a team rolls: one per point of the battle section's `dice_per` stat
    "dice_for": (("cards",), "int"),
    # who defends a victim: a player themselves, a minion's owner or controller
    # (the battle section's `defender`)
    "defender_of": (("victim",), "player"),
}

# The battle's operations the engine performs, that a battle step may do beside its
# parts: forming the teams.
BATTLE_OPERATIONS = ("form_attack", "form_defense")

# The types a record's field may have (its first value: none, an empty list, false).
RECORD_TYPES = frozenset({"player", "victim", "card", "cards", "dice", "bool", "int"})

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
