"""Actions as integers: a fixed action space per ruleset, card pool and table.

Frameworks want every decision's options as integers from one fixed range, and a
mask of the legal ones. `ActionSpace` lays that range out in blocks, one per
kind of action and, for an opened action (`summon`, `activate`, `pop`...), one
per verb, sized by its parameters: a card parameter by the cards a game can hold
(those the decks deal, and room for pawns made in play), an ability by the most
abilities a design of the pool has, a counter kind by the ruleset's counters, a
player by the seats. The layout depends only on the ruleset, the card pool and
the number of players, so an index means the same action in every game of them.

`ActionSpec` is an action in typed fields (`kind`, `verb`, `cards`, `ability`,
`counter`, `player`, `value`): what an index decodes to, and what a bot reads
instead of digging in `Action.value`. Options that encode alike (two dice showing
the same face, say) are one choice: the first listed stands for them.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kotc.engine.game import Engine, Game
from kotc.runtime.actions import Action
from kotc.runtime.dice import FACES
from kotc.runtime.values import AbilityRef, DieRef, Seat

# answers that carry no value, in the order the space lists them
WORDS = ("end", "pass", "done", "yes", "no")
# room for the options of one decision (`either`, which counter, how to perform)
# and for the numbers a player may pick: more than any shipped edition asks for
OPTIONS = 64
NUMBERS = 64
# room for pawns, as a share of the cards dealt (at least `MIN_PAWNS`)
MIN_PAWNS = 16

# how a parameter of an opened action is encoded, by its declared type
CARD, ABILITY, COUNTER, PLAYER = "card", "ability", "counter", "player"


@dataclass(frozen=True)
class ActionSpec:
    """An action in typed fields.

    Attributes:
        kind: `act` (an opened action), `pick` (a card, player, die...), `die`
            (a die to inflict), `option`, `number`, or a word: `end`, `pass`,
            `done`, `yes`, `no`.
        verb: the opened action an `act` takes (`summon`, `battle`...).
        cards: the cards it names, in its parameters' order.
        ability: the index of the ability it names among its card's.
        counter: the kind of counter it names.
        player: the seat it names.
        value: an option's index, a number, or a die's face.
    """

    kind: str
    verb: str | None = None
    cards: tuple[int, ...] = ()
    ability: int | None = None
    counter: str | None = None
    player: int | None = None
    value: int | None = None

    @property
    def card(self) -> int | None:
        """The first card it names, if any."""
        return self.cards[0] if self.cards else None


@dataclass(frozen=True)
class _Block:
    key: str  # a word, "option", "number", "die", "pick_*", or "act:VERB"
    start: int
    sizes: tuple[int, ...]  # the radices of its fields (one per parameter)
    fields: tuple[str, ...]  # what each field encodes (CARD, ABILITY...)

    @property
    def size(self) -> int:
        n = 1
        for s in self.sizes:
            n *= s
        return n


class ActionSpace:
    """The integer action space of games of one engine (ruleset and card pool)
    and number of players.

    Args:
        engine: the compiled ruleset and card pool.
        players: how many play.
        cards: how many cards the decks deal (pawns get room besides).

    Raises:
        ValueError: an opened action has a parameter of a type no block encodes.
    """

    def __init__(self, engine: Engine, players: int, cards: int):
        rs = engine.rs
        self.players = players
        self.dealt = cards
        self.cards = cards + max(MIN_PAWNS, cards)
        self.abilities = max([len(a) for a in engine.abilities.values()] + [1])
        self.counters = tuple(rs.counters)
        card_types = set(rs.card_types) | {CARD}
        radix = {CARD: self.cards, ABILITY: self.abilities,
                 COUNTER: max(len(self.counters), 1), PLAYER: players}
        layout: list[tuple[str, tuple[int, ...], tuple[str, ...]]] = [
            (w, (), ()) for w in WORDS
        ]
        layout += [
            ("option", (OPTIONS,), ("value",)),
            ("number", (NUMBERS,), ("value",)),
            ("die", (len(FACES),), ("value",)),
            ("pick_card", (self.cards,), (CARD,)),
            ("pick_player", (players,), (PLAYER,)),
            ("pick_die", (len(FACES),), ("value",)),
            ("pick_ability", (self.cards, self.abilities), (CARD, ABILITY)),
            ("pick_counter", (radix[COUNTER],), (COUNTER,)),
        ]
        self.verbs: dict[str, tuple[str, ...]] = {}
        for name, action in rs.actions.items():
            fields: list[str] = []
            for p in action.params:
                kind = CARD if p.type in card_types else p.type
                if kind not in radix:
                    raise ValueError(
                        f"action '{name}': no integer encoding for a parameter of "
                        f"type '{p.type}' ({p.name})"
                    )
                fields.append(kind)
            self.verbs[name] = tuple(fields)
            layout.append((f"act:{name}", tuple(radix[f] for f in fields), tuple(fields)))
        self.blocks: list[_Block] = []
        start = 0
        for key, sizes, encodes in layout:
            block = _Block(key, start, sizes, encodes)
            self.blocks.append(block)
            start += block.size
        self.size = start
        self._starts = [b.start for b in self.blocks]
        self._by_key = {b.key: b for b in self.blocks}

    # --- an action's fields --------------------------------------------------------

    def spec(self, game: Game, action: Action) -> ActionSpec:
        """The typed fields of a legal action of `game`.

        Raises:
            ValueError: the action is of a kind the space does not encode.
        """
        kind, value = action.kind, action.value
        if kind in WORDS:
            return ActionSpec(kind)
        if kind in ("option", "number"):
            return ActionSpec(kind, value=int(value))
        if kind == "die":
            return ActionSpec(kind, value=game.dice[value][0])
        if kind == "pick":
            return _pick_spec(game, value)
        if kind == "act":
            verb, args = value
            fields = self.verbs.get(verb)
            if fields is None or len(fields) != len(args):
                raise ValueError(f"no integer encoding for the action {action}")
            cards, ability, counter, player = [], None, None, None
            for field, arg in zip(fields, args, strict=True):
                if field == CARD:
                    cards.append(int(arg))
                elif field == ABILITY:
                    ability = int(arg.index) if isinstance(arg, AbilityRef) else int(arg)
                elif field == COUNTER:
                    counter = str(arg)
                else:
                    player = int(arg)
            return ActionSpec("act", verb, tuple(cards), ability, counter, player)
        raise ValueError(f"no integer encoding for an action of kind '{kind}'")

    # --- specs and integers --------------------------------------------------------

    def index(self, spec: ActionSpec) -> int:
        """The integer of an action's fields.

        Raises:
            ValueError: a field lies outside the space (more pawns, options or
                numbers than it has room for, an unknown verb or counter).
        """
        key = spec.kind
        if key == "act":
            key = f"act:{spec.verb}"
        elif key == "pick":
            key = _pick_key(spec)
        block = self._by_key.get(key)
        if block is None:
            raise ValueError(f"no integer encoding for {spec}")
        digits: list[int | None] = []
        cards = iter(spec.cards)
        for field in block.fields:
            if field == CARD:
                digits.append(next(cards))
            elif field == ABILITY:
                digits.append(spec.ability)
            elif field == COUNTER:
                if spec.counter not in self.counters:
                    raise ValueError(f"no integer encoding for counter '{spec.counter}'")
                digits.append(self.counters.index(spec.counter))
            elif field == PLAYER:
                digits.append(spec.player)
            else:
                value = spec.value
                digits.append(None if value is None else
                              value - 1 if key in ("die", "pick_die") else value)
        n = 0
        for digit, size in zip(digits, block.sizes, strict=True):
            if digit is None or not 0 <= digit < size:
                raise ValueError(
                    f"{spec} lies outside the action space ({block.key} holds "
                    f"{size} values)"
                )
            n = n * size + digit
        return block.start + n

    def spec_at(self, index: int) -> ActionSpec:
        """The fields an integer stands for (whether or not it is legal now).

        Raises:
            ValueError: the integer is outside the space.
        """
        if not 0 <= index < self.size:
            raise ValueError(
                f"action {index} is outside the action space 0..{self.size - 1}")
        block = self.blocks[bisect.bisect_right(self._starts, index) - 1]
        n = index - block.start
        digits = []
        for size in reversed(block.sizes):
            n, digit = divmod(n, size)
            digits.append(digit)
        digits.reverse()
        fields: dict[str, Any] = {"cards": []}
        for field, digit in zip(block.fields, digits, strict=True):
            if field == CARD:
                fields["cards"].append(digit)
            elif field == ABILITY:
                fields["ability"] = digit
            elif field == COUNTER:
                fields["counter"] = self.counters[digit]
            elif field == PLAYER:
                fields["player"] = digit
            else:
                fields["value"] = digit + 1 if block.key in ("die", "pick_die") else digit
        cards = tuple(fields.pop("cards"))
        key = block.key
        if key.startswith("act:"):
            return ActionSpec("act", key[4:], cards, **fields)
        if key.startswith("pick_"):
            return ActionSpec("pick", None, cards, **fields)
        return ActionSpec(key, None, cards, **fields)

    def legal(self, game: Game, options: Sequence[Action]) -> dict[int, Action]:
        """The integers of a decision's options, each with the option it stands for
        (the first listed, where several encode alike), in ascending order."""
        found: dict[int, Action] = {}
        for a in options:
            found.setdefault(self.index(self.spec(game, a)), a)
        return dict(sorted(found.items()))


def _pick_spec(game: Game, value: Any) -> ActionSpec:
    if isinstance(value, Seat):
        return ActionSpec("pick", player=int(value))
    if isinstance(value, DieRef):
        return ActionSpec("pick", value=game.dice[value][0])
    if isinstance(value, AbilityRef):
        return ActionSpec("pick", cards=(value.card,), ability=value.index)
    if isinstance(value, str):
        return ActionSpec("pick", counter=value)
    if isinstance(value, int) and not isinstance(value, bool):
        return ActionSpec("pick", cards=(value,))
    raise ValueError(f"no integer encoding for picking {value!r}")


def _pick_key(spec: ActionSpec) -> str:
    if spec.ability is not None:
        return "pick_ability"
    if spec.cards:
        return "pick_card"
    if spec.player is not None:
        return "pick_player"
    if spec.counter is not None:
        return "pick_counter"
    return "pick_die"
