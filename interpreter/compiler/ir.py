"""The intermediate form: what a rule's program means, once its names are resolved.

`lower.py` makes it from the validated syntax tree; `interp.py` evaluates it and
`codegen.py` writes it as Python; both follow the same meaning, and the tests
play games under both and compare.

Expressions know where each name comes from (the program's environment, an
element of a `where`, a term's parameter, a global) and what kind of value each
attribute is read from (a card's stat, a player's zone, an event's field...): a
read whose kind is not known when the program is compiled is a `DynAttr`, read
by the one function that looks at the value (`services.attr`).

Statements know whether they may wait for a decision (`waits`) or push a frame
(`pushes`); a block of statements that do neither is `simple`, and one that never
waits (each statement a tail, which may push) is `frameless`: both run without a
frame of their own, by both backends alike, so the frames a state holds mean the
same whichever backend made them. A frameless block's frame is made only where a
statement before its last pushes: the rest of the block is left in it, under
what was pushed (`kotc.runtime.vm.leave_rest`).

Every node is a frozen, slotted dataclass: hashable, so generated code is cached
by the form it was written from.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from kotc.dsl.ast import Citation

# --- expressions ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expr:
    """A value read from the game and the environment, changing neither."""


def operands(e: Expr) -> Iterator[Expr]:
    """The expressions `e` is made of, field by field (a tuple field's items in
    order): what a walk over an expression's tree visits next."""
    for name in e.__dataclass_fields__:
        value = getattr(e, name)
        for v in value if isinstance(value, tuple) else (value,):
            if isinstance(v, Expr):
                yield v


@dataclass(frozen=True, slots=True)
class Const(Expr):
    """A literal: an int, a bool, a string (a name), or None."""

    value: Any


@dataclass(frozen=True, slots=True)
class Name(Expr):
    """A name bound in the program's environment: an error if it is not. `bound`:
    one the engine binds wherever the program runs, to a value of a known kind
    (`you`, `this`, `host`), read as it is."""

    name: str
    bound: bool = False


@dataclass(frozen=True, slots=True)
class NameOr(Expr):
    """A name bound in the environment, or `default` where it is not (a counter
    or tag named bare, which a name may stand for)."""

    name: str
    default: Any


@dataclass(frozen=True, slots=True)
class Local(Expr):
    """An element of a `where`, or a term's parameter (or its `you`): bound by the
    expression itself, never in the environment."""

    slot: str


@dataclass(frozen=True, slots=True)
class Active(Expr):
    """The active player: the environment's `active` where it may bind one
    (`bound`: the program or its caller names it; a term's environment binds
    none)."""

    bound: bool = True


@dataclass(frozen=True, slots=True)
class Players(Expr):
    """The players still in the game, in seat order (a list of the caller's own)."""


@dataclass(frozen=True, slots=True)
class GameField(Expr):
    """`game.turn`, `game.phase`, `game.step`, `game.first_player`, `game.first_turn`,
    `game.victims`."""

    name: str


@dataclass(frozen=True, slots=True)
class ChainField(Expr):
    """`chain.open`, `chain.length`, `chain.resolving`, `chain.last_actor`."""

    name: str


@dataclass(frozen=True, slots=True)
class BattleField(Expr):
    """`battle.ongoing`, or a field of the battle's record (an empty list for a
    team, None for any other field, while no battle is under way)."""

    name: str


@dataclass(frozen=True, slots=True)
class CardStat(Expr):
    """A card's stat (a name the edition or a printed card gives stats); where the
    card has none, read as any other attribute (`services.card_attr`)."""

    card: Expr
    stat: str
    sure: bool  # the value is a card for certain (else it is looked at first)


@dataclass(frozen=True, slots=True)
class CardCost(Expr):
    """`cost(card)`: the card's value of the stat the ruleset prices cards by
    (`stat`), 0 where it has none; 0 where the ruleset prices nothing (None)."""

    card: Expr
    stat: str | None


@dataclass(frozen=True, slots=True)
class CardField(Expr):
    """A card's own field (`exhausted`, `zone`, `pawn`, `fatigued_turn`...)."""

    card: Expr
    name: str
    sure: bool


@dataclass(frozen=True, slots=True)
class CardSeat(Expr):
    """A card's `owner`, `controller` or `last_controller`, as a player."""

    card: Expr
    name: str
    sure: bool


@dataclass(frozen=True, slots=True)
class DieField(Expr):
    """A die's `value`, or its `roller` as a player (`sure`: the value is a die
    for certain; else it is read as `attr` reads any value)."""

    die: Expr
    name: str
    sure: bool


@dataclass(frozen=True, slots=True)
class PlayerZone(Expr):
    """A player's zone: the list of its cards."""

    player: Expr
    zone: str
    sure: bool  # the value is a player for certain


@dataclass(frozen=True, slots=True)
class PlayersZone(Expr):
    """A zone of each of several players, their cards joined in seat order."""

    players: Expr
    zone: str


@dataclass(frozen=True, slots=True)
class Join(Expr):
    """`a + b` of zones of different names: their cards one after the other (a
    card is in one zone, so none repeats, as `+` of collections leaves out)."""

    parts: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class PlayerField(Expr):
    """A player's `hp`, `eliminated`, `decked_out`, `agreed`; `left`: the player to
    its left still in the game."""

    player: Expr
    name: str
    sure: bool


@dataclass(frozen=True, slots=True)
class EventField(Expr):
    """A field of the event a reaction or trigger reads (None where it has none)."""

    event: Expr
    name: str


@dataclass(frozen=True, slots=True)
class DynAttr(Expr):
    """An attribute of a value whose kind is known only when read
    (`services.attr`)."""

    value: Expr
    name: str
    # read with the program's environment (a name bound to a stat stands for it);
    # in a term written in place, with the term's own, which binds no such name
    own_env: bool


@dataclass(frozen=True, slots=True)
class Builtin(Expr):
    """A function of the language (`count`, `total`, `top`, `cost`, `tagged`...);
    and two of the engine's: `context` (`game`, `chain` or `battle` as a value)
    and `unbound` (a name a term's environment does not bind)."""

    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class TermCall(Expr):
    """A term not written in place (one that uses itself): run with an environment
    of its own, its parameters and the caller's `you`."""

    term: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class With(Expr):
    """`body` with the locals `slots` bound to `values`, in order (a term written
    in place: its arguments, then its body)."""

    slots: tuple[str, ...]
    values: tuple[Expr, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True)
class And(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Or(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Compare(Expr):
    """`==`, `!=`, or an order comparison, which does not hold with None on
    either side."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Arith(Expr):
    """`+` and `-` (of numbers, or of collections: joined without repeats, or taken
    away), `*`, `/` (rounded down; by zero, 0)."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class In(Expr):
    """`x in collection` (or `x == value` for a single value)."""

    item: Expr
    collection: Expr


@dataclass(frozen=True, slots=True)
class InOwnZone(Expr):
    """`card in card.controller.ZONE` for an element of a `where` over cards: the
    card's own zone says it."""

    card: Expr
    zone: str


@dataclass(frozen=True, slots=True)
class Is(Expr):
    """`x is NAME`: a card type (`kind` "type"; "card_type" where `x` is a card
    for certain), `pawn`, `player`, an ability's modifier ("modifier"), a
    counter's kind ("counter_kind"), or equality with the name ("name")."""

    kind: str
    value: Expr
    name: str


@dataclass(frozen=True, slots=True)
class Exists(Expr):
    """Whether a collection holds anything (`count(xs) > 0`; `count(xs) == 0` is
    its negation): a `where` read up to the first element its test keeps, any
    other value's items looked at as `count` looks at them."""

    what: Expr


@dataclass(frozen=True, slots=True)
class Where(Expr):
    """`base where cond`. With `slot`, every element is of one kind, bound to that
    local; with none, each element is bound in the environment under the name its
    kind gives the first (`card`, `player`, `die`) while `cond` is read."""

    base: Expr
    cond: Expr
    slot: str | None
    kind: str  # "card", "player", "die", or "" where it is known only when read


# --- statements -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stmt:
    """One statement of a block; `cite` is the rule it runs for."""

    cite: Citation | None
    # whether it may wait for a decision, or push a frame (moving its own frame
    # on first): class-wide for most, per statement for some (`If`, `Repeat`...)
    waits: ClassVar[bool] = False
    pushes: ClassVar[bool] = False
    # whether it reads or changes its own frame (its event, the frame below)
    reads_frame: ClassVar[bool] = False

    @property
    def framed(self) -> bool:
        """It, or a statement of a branch it may run in its frame's place, reads
        its own frame: it runs only in a frame."""
        return self.reads_frame

    @property
    def simple(self) -> bool:
        """Neither waits nor pushes: runs straight through, with no frame."""
        return not (self.waits or self.pushes)

    @property
    def tail(self) -> bool:
        """Never waits; if it pushes, it has moved its frame on first: it may end a
        branch an `if` runs in its own frame's place."""
        return not self.waits


@dataclass(frozen=True, slots=True)
class Block:
    """Statements run in order, with the rule they come from and a number (a saved
    frame names its block by number). `simple`: none of them waits or pushes;
    `inline`: an `if` runs this branch in its own frame's place (simple
    statements, the last of which may be a tail); `framed`: some statement reads
    its own frame; `frameless`: none waits and none reads its own frame, so it
    runs with no frame of its own (`vm.Block.in_place`), its frame made only
    where a statement before its last pushes (for the rest of the block)."""

    id: int
    stmts: tuple[Stmt, ...]
    cite: Citation | None
    where: str
    simple: bool = field(init=False, compare=False)
    inline: bool = field(init=False, compare=False)
    framed: bool = field(init=False, compare=False)
    frameless: bool = field(init=False, compare=False)

    def __post_init__(self) -> None:
        stmts = self.stmts
        simple = all(s.simple for s in stmts)
        inline = not stmts or (all(s.simple for s in stmts[:-1]) and stmts[-1].tail)
        framed = any(s.framed for s in stmts)
        object.__setattr__(self, "simple", simple)
        object.__setattr__(self, "inline", inline)
        object.__setattr__(self, "framed", framed)
        object.__setattr__(self, "frameless",
                           all(s.tail for s in stmts) and not framed)


# simple statements: they never wait nor push


# how a primitive's operand is read: its value; its items, as a list of their own
# (the primitive may keep it); or each of its items, the primitive called once for
# each (over a copy taken first: the primitive may move them)
VALUE, LIST, EACH = "value", "list", "each"


@dataclass(frozen=True, slots=True)
class Primitive(Stmt):
    """A statement that reads its operands and calls one primitive of the game
    (`name`, a method of `Game`) with them, in order, and with its citation where
    the primitive takes one (`cited`). `reads`: how each operand is read (`VALUE`,
    `LIST`, `EACH`; at most one `EACH`). A new primitive effect needs only its
    row in the lowering's table (`lower.PRIMITIVES`)."""

    name: str
    operands: tuple[Expr, ...]
    reads: tuple[str, ...]
    cited: bool = True


@dataclass(frozen=True, slots=True)
class Move(Stmt):
    what: Expr  # the cards, each moved (a copy of the list is taken first)
    owner: Expr  # the player whose zone they go to
    zone: str
    mods: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Exhaust(Stmt):
    what: Expr
    flag: bool  # False: unexhaust


@dataclass(frozen=True, slots=True)
class Fatigue(Stmt):
    what: Expr
    flag: bool  # False: unfatigue


@dataclass(frozen=True, slots=True)
class Change(Stmt):
    """`add`/`subtract` (`sign` 1 or -1) or `set` (`sign` 0) a field of each owner:
    a card's stat, a player's HP, an event's field, a battle's slot. `field` is
    a stat's name, or with `dynamic` a name bound to one (`which`)."""

    owner: Expr
    field: str
    dynamic: bool
    value: Expr
    sign: int
    until: str | None


@dataclass(frozen=True, slots=True)
class Watch(Stmt):
    """An effect made for its holder (`you`) that lasts until a time (`until`): each
    time the event happens and `cond` holds, the holder may run `body`, `times`
    times per value of `key`, for `keys` values (numbered: a game keeps which watch
    it holds by `number`). `cond`, `key` and `body` read the event as `event`."""

    number: int
    event: str
    until: str
    cond: Expr | None
    times: Expr
    keys: Expr
    key: Expr
    body: Block


@dataclass(frozen=True, slots=True)
class Place(Stmt):
    count: Expr
    kind: Expr
    target: Expr


@dataclass(frozen=True, slots=True)
class Strip(Stmt):
    count: Expr
    kind: Expr
    target: Expr


@dataclass(frozen=True, slots=True)
class Reveal(Stmt):
    what: Expr


@dataclass(frozen=True, slots=True)
class See(Stmt):
    what: Expr
    who: Expr | None


@dataclass(frozen=True, slots=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Prevent(Stmt):
    pass


@dataclass(frozen=True, slots=True)
class CreatePawn(Stmt):
    owner: Expr
    zone: str
    name: str
    source: Expr | None
    printed: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True, slots=True)
class Pay(Stmt):
    amount: Expr
    kind: str


@dataclass(frozen=True, slots=True)
class After(Stmt):
    """`after FLOW { ... }`: the body waits for the sub-flow under way to end; it
    runs at once (a frame pushed) where none is under way."""

    flow: str
    body: Block
    pushes = True


@dataclass(frozen=True, slots=True)
class Link(Stmt):
    """`link { ... }`: the body put on the chain as a link of the frame's player,
    with the frame's names; it runs as the link resolves (a rechecked link's
    body is lowered as the test of its action's `requires`, the program or its
    interruption)."""

    body: Block
    source: Expr | None = None  # the card the link is of


@dataclass(frozen=True, slots=True)
class Begin(Stmt):
    """`begin FLOW with FIELD = EXPR, ...`: a sub-flow entered with its record's
    first values, each field with the kind its record declares."""

    flow: str
    fields: tuple[tuple[str, str, Expr], ...]


@dataclass(frozen=True, slots=True)
class EndGame(Stmt):
    pass


@dataclass(frozen=True, slots=True)
class Reset(Stmt):
    what: Expr
    stats: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Expire(Stmt):
    until: str


@dataclass(frozen=True, slots=True)
class BindNumbers(Stmt):
    """The numbers a printed text gives its phrase (`x`, `y`, `counter`)."""

    values: tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class KeepTargets(Stmt):
    """What a target selection bound, kept under `key` for its effects."""

    key: str


@dataclass(frozen=True, slots=True)
class RestoreTargets(Stmt):
    key: str


@dataclass(frozen=True, slots=True)
class HandOver(Stmt):
    """The targets chosen on activation, handed to the link (or resolution) the
    activation makes: the frame below."""

    reads_frame = True


@dataclass(frozen=True, slots=True)
class MakeLink(Stmt):
    """The link an activation makes, once its cost is paid and its targets chosen."""

    reads_frame = True


# statements that may push a frame, having moved their own on first (tails)


@dataclass(frozen=True, slots=True)
class Call(Stmt):
    """A keyword's program, run in the environment the call makes of `args`: `you`
    (the player it runs as), its parameters in their order, and `__within` (the
    keyword, which the events of the calls inside it name). A required parameter
    left None: nothing to act on, nothing done."""

    keyword: str
    args: tuple[tuple[str, Expr | None], ...]
    required: tuple[str, ...]
    cost: bool
    pushes = True


@dataclass(frozen=True, slots=True)
class Emit(Stmt):
    event: str
    args: tuple[tuple[str, Expr], ...]
    pushes = True


@dataclass(frozen=True, slots=True)
class Resolve(Stmt):
    what: Expr
    then: Block | None
    pushes = True


@dataclass(frozen=True, slots=True)
class RollGroup:
    """Dice one player rolls (`who`, else `you`), kept as a name of the program's
    environment or as a field of the battle's record."""

    count: Expr
    who: Expr | None
    name: str | None
    field: str | None


@dataclass(frozen=True, slots=True)
class Roll(Stmt):
    """Groups of dice rolled at once, each logged as rolled; then every die is
    announced (`rolled`), the last first."""

    groups: tuple[RollGroup, ...]
    pushes = True


@dataclass(frozen=True, slots=True)
class Pop(Stmt):
    kind: Expr
    target: Expr
    pushes = True


@dataclass(frozen=True, slots=True)
class If(Stmt):
    """Runs a branch: in this frame's place where the branch is `inline`, else in a
    frame of its own."""

    cond: Expr
    then: Block
    otherwise: Block | None

    @property
    def simple(self) -> bool:
        return self.then.simple and (self.otherwise is None or self.otherwise.simple)

    @property
    def framed(self) -> bool:
        return self.then.framed or (self.otherwise is not None and self.otherwise.framed)

    @property
    def tail(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Repeat(Stmt):
    """Its body `times` times: here, when the body is simple; once, in this frame's
    place where the body is `inline` (as an `if` runs such a branch); else in a
    frame of its own that goes round again."""

    times: Expr
    body: Block

    @property
    def simple(self) -> bool:
        return self.body.simple

    @property
    def framed(self) -> bool:
        return self.body.framed

    @property
    def tail(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class CallBody(Stmt):
    """A watched keyword call's own body, once nothing prevented it."""

    keyword: str
    params: tuple[str, ...]
    pushes = True
    reads_frame = True  # the event the reactions before it may have changed


# statements that may wait for a decision


@dataclass(frozen=True, slots=True)
class ForEach(Stmt):
    """Its body for each item (in an order `chooser` picks); here, when the body
    is simple, else in a frame of its own that goes round again."""

    name: str
    what: Expr
    body: Block
    chooser: Expr | None
    waits = True
    pushes = True

    @property
    def simple(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Choose(Stmt):
    what: Expr
    name: str
    lo: Expr | None
    hi: Expr | None
    n: Expr | None
    any: bool
    single: bool  # `exactly 1`: the name holds the one chosen, not a list
    chooser: Expr | None
    random: bool
    prompt: str  # what the chooser is asked
    waits = True


@dataclass(frozen=True, slots=True)
class Either(Stmt):
    options: tuple[Block, ...]
    labels: tuple[str, ...]
    who: Expr | None
    waits = True
    pushes = True


@dataclass(frozen=True, slots=True)
class May(Stmt):
    body: Block
    who: Expr | None
    waits = True
    pushes = True


@dataclass(frozen=True, slots=True)
class Perform(Stmt):
    action: str
    args: tuple[Expr, ...]
    mods: tuple[str, ...]
    who: Expr | None
    waits = True
    pushes = True


@dataclass(frozen=True, slots=True)
class Pick(Stmt):
    name: str
    lo: Expr
    hi: Expr
    chooser: Expr | None
    waits = True


@dataclass(frozen=True, slots=True)
class SetRecord(Stmt):
    """A flow's own program setting a field of its record (`set battle.defender
    to ...` in a battle's part): silently, as the flow keeps its record (an
    effect's `set` is a `Change`, and logged)."""

    flow: str
    field: str
    value: Expr


@dataclass(frozen=True, slots=True)
class Drop(Stmt):
    """`drop X from battle.FIELD`, or `drop all`: a list the record keeps, made
    anew without that item (its first), or empty."""

    flow: str
    field: str
    what: Expr | None


@dataclass(frozen=True, slots=True)
class Append(Stmt):
    """`append X to battle.FIELD` (or `game.victims`): the list made anew with `X`
    at its end."""

    flow: str
    field: str
    what: Expr


@dataclass(frozen=True, slots=True)
class Form(Stmt):
    """`form battle.FIELD from CANDIDATES by P ...`: the player selects the list
    front to back, one member at a time (see `services.form`). `fixed`: the
    candidates read nothing a pick changes (the list formed, the recent events
    a pick notes), so they are read once, as it begins."""

    flow: str
    field: str
    what: Expr
    chooser: Expr
    least: Expr | None
    prompt: str
    done: str
    event: str | None
    fixed: bool = False
    waits = True


@dataclass(frozen=True, slots=True)
class Log(Stmt):
    """`log EVENT(...)`: an event of the log recorded, each field as the log keeps
    its kind (a player by seat number, cards as a list); a text as written."""

    event: str
    # each field's name, kind, value (or its text)
    fields: tuple[tuple[str, str, Expr | None, str | None], ...]


@dataclass(frozen=True, slots=True)
class EndFlow(Stmt):
    """`end battle`: the flow under way ends once the program that says so is done."""

    flow: str


@dataclass(frozen=True, slots=True)
class ChooseDie(Stmt):
    """`choose die from DICE as NAME by P asking "..." labelled "..."`: one option
    per value, lowest first (the first die of that value); the label's `{value}`
    is the die's, its other holes (`holes`) the names bound there."""

    what: Expr
    name: str
    prompt: str
    label: str
    holes: tuple[tuple[str, Expr], ...]
    chooser: Expr | None
    waits = True


@dataclass(frozen=True, slots=True)
class Order(Stmt):
    """`order battle.FIELD by P asking "..."`: the player puts the list in a new
    order, front to back (see `services.order`)."""

    flow: str
    field: str
    chooser: Expr
    prompt: str
    waits = True


@dataclass(frozen=True, slots=True)
class Note(Stmt):
    """`note EVENT(...)`: the event kept for the abilities that wait for it (none
    does: nothing)."""

    event: str
    fields: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True, slots=True)
class StripAny(Stmt):
    """`strip n any from cards`: from each card, up to `n` counters of any kinds,
    the player choosing which kind each time more than one is there and not all
    of them go."""

    count: Expr
    target: Expr
    waits = True


@dataclass(frozen=True, slots=True)
class Stop(Stmt):
    """The rest of the phrase's program does nothing if `cond` holds; in an
    activation, the activation fails."""

    cond: Expr
    waits = True  # it ends frames below its own: never run in another's place
    pushes = True


@dataclass(frozen=True, slots=True)
class React(Stmt):
    """Offers each reactive counter that watches the frame's event (`timing`:
    `would`, `before`, `after`, or None for right after it) to its placer."""

    timing: str | None
    waits = True
    pushes = True


# --- listing plans --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParamPlan:
    """How a listing fills one parameter of an action: where its candidates come
    from (`source`; None: by its type: the players, a card's abilities or
    counters, the player's cards with abilities), the card type they must have,
    and the part of the requirement decided once it is bound (`check`)."""

    name: str
    type: str
    card_type: str | None
    source: Expr | None
    check: Expr | None


@dataclass(frozen=True, slots=True)
class ActionPlan:
    """How a listing finds every way to take an action now: its parameters in
    order; for one with none, its requirement; what it costs (paid first, so
    checked before it is offered); the parameter whose ability (or card's first)
    must be activatable now (`resolves`); and, where a parameter takes a counter
    off a card, the kinds it may take (none in play: nothing to list)."""

    name: str
    params: tuple[ParamPlan, ...]
    requires: Expr | None
    costs: tuple[tuple[str, Expr], ...]
    resolves: str | None
    counter_kinds: frozenset[str] | None


__all__ = [name for name in dir() if not name.startswith("_") and name[0].isupper()]
