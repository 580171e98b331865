"""Plain, picklable syntax trees for rule files, independent of textX.

Each class mirrors one rule of the grammar in `rules/` and has the same field
names, so `convert.py` can translate textX objects generically. Every node keeps
its `origin` (file, line, column) so later layers can point back at the source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias


@dataclass(frozen=True)
class Origin:
    """Where a node was written: `file:line:col`."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NOWHERE = Origin("<builtin>", 0, 0)


def paths(tree: Node | tuple[object, ...]) -> list[Path]:
    """Every `Path` inside a syntax tree (a node or a tuple of nodes), in order."""
    found: list[Path] = []

    def walk(node: object) -> None:
        if isinstance(node, Path):
            found.append(node)
        elif isinstance(node, tuple):
            for x in node:
                walk(x)
        elif isinstance(node, Node):
            for v in vars(node).values():
                walk(v)

    walk(tree)
    return found


@dataclass(frozen=True)
class Node:
    origin: Origin = field(default=NOWHERE, compare=False, repr=False, kw_only=True)


# --- common ----------------------------------------------------------------------


@dataclass(frozen=True)
class Citation(Node):
    """A rulebook section of `edition`; an interpretation where the book is silent."""

    section: str
    interpretation: str | None = None
    edition: str = ""
    # `str(self)`, set by `__post_init__`: declared for the type checker only, so
    # that `dataclasses.fields` (which `diff` and `serialize` walk) stays as it was
    if TYPE_CHECKING:
        text: str = field(init=False, compare=False, repr=False)

    def __str__(self) -> str:
        text = f"{self.edition} §{self.section}"
        if self.interpretation:
            text += f" (interpretation: {self.interpretation})"
        return text

    def __post_init__(self) -> None:
        # `str(self)`, made once: a game's events cite rules at every step (a plain
        # attribute, which reads faster than a cached property)
        object.__setattr__(self, "text", str(self))


@dataclass(frozen=True)
class Range(Node):
    """Inclusive bounds; `hi` is None when unbounded."""

    lo: int
    hi: int | None

    def __contains__(self, n: int) -> bool:
        return n >= self.lo and (self.hi is None or n <= self.hi)

    def __str__(self) -> str:
        if self.hi == self.lo:
            return str(self.lo)
        return f"{self.lo}..{'' if self.hi is None else self.hi}"


@dataclass(frozen=True)
class Position(Node):
    where: str
    anchor: str


# --- expressions -----------------------------------------------------------------


@dataclass(frozen=True)
class Expr(Node):
    pass


@dataclass(frozen=True)
class IntLit(Expr):
    value: int


@dataclass(frozen=True)
class BoolLit(Expr):
    value: bool


@dataclass(frozen=True)
class NoneLit(Expr):
    pass


@dataclass(frozen=True)
class Path(Expr):
    parts: tuple[str, ...]

    def __str__(self) -> str:
        return ".".join(self.parts)


@dataclass(frozen=True)
class FuncCall(Expr):
    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Unary(Expr):
    op: str
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Filtered(Expr):
    """`base where cond`: the elements of `base` for which `cond` holds."""

    base: Expr
    cond: Expr


@dataclass(frozen=True)
class Param(Node):
    name: str
    type: str
    optional: bool = False
    source: Expr | None = None


# --- statements ------------------------------------------------------------------


@dataclass(frozen=True)
class Stmt(Node):
    pass


Block: TypeAlias = tuple[Stmt, ...]


@dataclass(frozen=True)
class Move(Stmt):
    what: Expr
    dest: Expr
    mods: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exhaust(Stmt):
    what: Expr
    unexhaust: bool = False


@dataclass(frozen=True)
class Fatigue(Stmt):
    what: Expr


@dataclass(frozen=True)
class AddOp(Stmt):
    op: str
    amount: Expr
    target: Path
    until: str | None = None


@dataclass(frozen=True)
class SetOp(Stmt):
    target: Path
    value: Expr
    until: str | None = None


@dataclass(frozen=True)
class RollGroup(Node):
    count: Expr
    target: Path  # a name, or a record's field (`battle.attack_dice`)
    who: Expr | None = None  # who rolls them (`you` if none)


@dataclass(frozen=True)
class Roll(Stmt):
    """Dice rolled at once, in groups; then each die is announced (`rolled`)."""

    groups: tuple[RollGroup, ...]


@dataclass(frozen=True)
class Reroll(Stmt):
    die: Expr


@dataclass(frozen=True)
class Watch(Stmt):
    """An effect lasting until a time, that its holder may use each time an event
    happens: `times` times per value of `key`, for `keys` different values."""

    trigger: Trigger
    until: str
    times: Expr
    keys: Expr
    key: Expr
    body: Block


@dataclass(frozen=True)
class Place(Stmt):
    count: Expr
    counter: str
    target: Expr


@dataclass(frozen=True)
class Strip(Stmt):
    count: Expr
    counter: str
    target: Expr


@dataclass(frozen=True)
class Pop(Stmt):
    counter: str
    target: Expr


@dataclass(frozen=True)
class Give(Stmt):
    what: Expr
    player: Expr


@dataclass(frozen=True)
class Reveal(Stmt):
    what: Expr


@dataclass(frozen=True)
class See(Stmt):
    what: Expr
    who: Expr | None = None


@dataclass(frozen=True)
class Count(Node):
    """How many a choice takes: `lo..hi`, `exactly n`, or `any` number."""

    lo: Expr | None = None
    hi: Expr | None = None
    n: Expr | None = None
    any: bool = False


@dataclass(frozen=True)
class Choose(Stmt):
    count: Count
    what: Expr
    name: str
    chooser: Expr | None = None
    random: bool = False
    prompt: str | None = None  # what the chooser is asked


@dataclass(frozen=True)
class ChooseDie(Stmt):
    """One die by its value: one option per value, lowest first, as a `die` answer."""

    what: Expr
    name: str
    prompt: str
    label: str  # `{value}`: the die's; `{name}`: what the name is bound to
    chooser: Expr | None = None


@dataclass(frozen=True)
class Either(Stmt):
    options: tuple[Block, ...]
    who: Expr | None = None
    # what each option does, as the player reads it (none written: empty)
    labels: tuple[str | None, ...] = ()


@dataclass(frozen=True)
class ForEach(Stmt):
    name: str
    what: Expr
    body: Block
    chooser: Expr | None = None


@dataclass(frozen=True)
class If(Stmt):
    cond: Expr
    then: Block
    otherwise: Block = ()


@dataclass(frozen=True)
class May(Stmt):
    body: Block
    who: Expr | None = None


@dataclass(frozen=True)
class Emit(Stmt):
    event: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Shuffle(Stmt):
    what: Expr


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True)
class Repeat(Stmt):
    times: Expr
    body: Block


@dataclass(frozen=True)
class Prevent(Stmt):
    pass


@dataclass(frozen=True)
class Stop(Stmt):
    """The rest of the ability has no effect, if `cond` holds (phrases only)."""

    cond: Expr


@dataclass(frozen=True)
class Negate(Stmt):
    what: Expr


@dataclass(frozen=True)
class Skip(Stmt):
    step: str


@dataclass(frozen=True)
class Perform(Stmt):
    action: str
    args: tuple[Expr, ...]
    mods: tuple[str, ...] = ()
    who: Expr | None = None


@dataclass(frozen=True)
class PawnValue(Node):
    stat: str
    value: Expr


@dataclass(frozen=True)
class CreatePawn(Stmt):
    zone: Expr
    name: str
    source: Expr | None = None
    printed: tuple[PawnValue, ...] = ()


@dataclass(frozen=True)
class Mark(Stmt):
    what: Expr
    tag: str
    until: str | None = None


@dataclass(frozen=True)
class Pick(Stmt):
    name: str
    lo: Expr
    hi: Expr
    chooser: Expr | None = None


@dataclass(frozen=True)
class Pay(Stmt):
    amount: Expr
    kind: str


@dataclass(frozen=True)
class After(Stmt):
    """A program run once the sub-flow under way ends (at once if none is)."""

    flow: str
    body: Block


@dataclass(frozen=True)
class Link(Stmt):
    """A program put on the chain as a link; `rechecked`: interrupted as it
    resolves where `recheck`, the `requires` of the action it is written in, no
    longer holds."""

    body: Block
    rechecked: bool = False
    # filled in by the loader from the action the link is written in: not syntax,
    # so a link reads back equal to its text (`kotc fmt`, the unparse round trip)
    recheck: Expr | None = field(default=None, compare=False)
    source: Expr | None = field(default=None, compare=False)  # the card it is of


@dataclass(frozen=True)
class FieldValue(Node):
    """A field of a sub-flow's record and its first value (`attacker = you`)."""

    name: str
    value: Expr


@dataclass(frozen=True)
class Begin(Stmt):
    """A sub-flow entered with its record's first values."""

    flow: str
    fields: tuple[FieldValue, ...] = ()


@dataclass(frozen=True)
class Banish(Stmt):
    what: Expr


@dataclass(frozen=True)
class EndGame(Stmt):
    pass


@dataclass(frozen=True)
class Reset(Stmt):
    stats: tuple[str, ...]
    what: Expr


@dataclass(frozen=True)
class Unfatigue(Stmt):
    what: Expr


@dataclass(frozen=True)
class Expire(Stmt):
    until: str


@dataclass(frozen=True)
class Resolve(Stmt):
    what: Expr
    then: Block = ()  # run once the ability has resolved (see rules/effects.tx)


@dataclass(frozen=True)
class Call(Stmt):
    keyword: str
    args: tuple[Expr, ...]
    who: Expr | None = None  # the keyword runs as this player


@dataclass(frozen=True)
class Drop(Stmt):
    """One item, or all, taken out of a list a record keeps."""

    target: Path
    what: Expr | None = None
    all: bool = False


@dataclass(frozen=True)
class Append(Stmt):
    """One item put at the end of a list a record or the game keeps."""

    what: Expr
    target: Path


@dataclass(frozen=True)
class Form(Stmt):
    """A player selects an ordered list one member at a time (see rules/effects.tx)."""

    target: Path
    what: Expr
    chooser: Expr
    prompt: str
    done: str
    least: Expr | None = None
    event: str | None = None  # noted for each new member


@dataclass(frozen=True)
class LogArg(Node):
    """A field of a logged event: a text, or a value."""

    text: str | None = None
    value: Expr | None = None


@dataclass(frozen=True)
class Log(Stmt):
    """An event of the log recorded, and nothing more."""

    event: str
    args: tuple[LogArg, ...] = ()


@dataclass(frozen=True)
class Note(Stmt):
    """An event kept for the abilities that wait for it, and nothing more."""

    event: str
    args: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Order(Stmt):
    """A player puts a list a record keeps in a new order, front to back."""

    target: Path
    chooser: Expr
    prompt: str


@dataclass(frozen=True)
class EndFlow(Stmt):
    """The flow under way ends once the program that says so is done."""

    flow: str


# --- rules -----------------------------------------------------------------------


@dataclass(frozen=True)
class Rule(Node):
    """One rule of a section. `key` identifies it for `override` and `remove`."""

    cite: Citation | None = field(default=None, kw_only=True)
    override: bool = field(default=False, kw_only=True)

    kind = "setting"

    @property
    def name(self) -> str:
        raise NotImplementedError

    @property
    def key(self) -> str:
        return f"{self.kind} {self.name}"


@dataclass(frozen=True)
class Setting(Rule):
    """A rule that exists at most once per section; its name is its setting."""

    setting = ""

    @property
    def name(self) -> str:
        return self.setting


@dataclass(frozen=True)
class Named(Rule):
    """A rule with a name of its own (a zone, a phase, a keyword...)."""

    ident: str = ""
    label: str = ""

    @property
    def name(self) -> str:
        return self.ident

    @property
    def title(self) -> str:
        return self.label or self.ident


@dataclass(frozen=True)
class Removal(Rule):
    """Drops an inherited rule: `remove zone trapfield`."""

    removed_kind: str = ""
    removed_name: str = ""
    kind = "remove"

    @property
    def name(self) -> str:
        return self.removed_name

    @property
    def target_key(self) -> str:
        return f"{self.removed_kind} {self.removed_name}"


# setup


@dataclass(frozen=True)
class PlayersRule(Setting):
    count: Range
    recommended: Range | None = None
    setting = "players"


@dataclass(frozen=True)
class DeckSizeRule(Setting):
    size: Range
    setting = "deck_size"


@dataclass(frozen=True)
class ReservesRule(Setting):
    size: Range
    source: str
    setting = "reserves"


@dataclass(frozen=True)
class PileRule(Named):
    """A named pile of a deck list, set apart from its main cards: its size, whether
    it counts toward the deck size (`from_deck`) or not (`apart`), and the zone its
    cards start in (None: the zone flagged `reserve`, else the starting zone)."""

    size: Range = field(default_factory=lambda: Range(0, 0))
    source: str = "apart"
    zone: str | None = None
    kind = "pile"

    @classmethod
    def of_reserves(cls, r: ReservesRule) -> PileRule:
        """The reserves rule as the pile it is, named `reserves`."""
        return cls(ident="reserves", size=r.size, source=r.source, cite=r.cite,
                   override=r.override, origin=r.origin)


@dataclass(frozen=True)
class UltraPointsRule(Setting):
    cap: int
    setting = "ultra_points"


@dataclass(frozen=True)
class CopiesRule(Setting):
    """The most cards of one name a deck may hold, its piles counted with it."""

    cap: int
    setting = "copies"


@dataclass(frozen=True)
class IndicatorRule(Setting):
    need: str
    verdict: str | None = None  # a required one: the status of a card showing none
    setting = "edition_indicator"


@dataclass(frozen=True)
class SetupOrder(Setting):
    start: str
    setting = "step_order"


@dataclass(frozen=True)
class StartingHpRule(Setting):
    hp: int
    setting = "starting_hp"


@dataclass(frozen=True)
class SetupStep(Named):
    body: Block = ()
    first_player_dice: int | None = None
    position: Position | None = None
    kind = "step"


# anatomy


@dataclass(frozen=True)
class CardType(Named):
    stats: tuple[str, ...] = ()
    kind = "card_type"


@dataclass(frozen=True)
class Stat(Named):
    floor: int | None = None
    kind = "stat"


@dataclass(frozen=True)
class Tag(Named):
    kind = "tag"


@dataclass(frozen=True)
class CostRule(Setting):
    stat: str
    setting = "cost"


@dataclass(frozen=True)
class UltraPointsStat(Setting):
    label: str
    default: int
    setting = "ultra_points_stat"


@dataclass(frozen=True)
class PawnRule(Setting):
    type: str
    zone: str
    setting = "pawns"


# zones


@dataclass(frozen=True)
class Zone(Named):
    knowledge: str = "private"
    flags: tuple[str, ...] = ()
    holds: tuple[str, ...] = ()
    kind = "zone"

    @property
    def ordered(self) -> bool:
        return "ordered" in self.flags

    @property
    def in_play(self) -> bool:
        return "in_play" in self.flags

    @property
    def face(self) -> str:
        return "face_down" if "face_down" in self.flags else "face_up"


# turn


@dataclass(frozen=True)
class SkipWhen(Node):
    cond: Expr
    cite: Citation | None = None


@dataclass(frozen=True)
class PhaseWindow(Node):
    """A phase's window as a round from the active player until all pass in a
    row; after an action the actor is asked again (`ask_actor`) or the next player
    (`ask_next`)."""

    after: str
    cite: Citation | None = None


@dataclass(frozen=True)
class Variant(Node):
    cond: Expr
    body: Block
    cite: Citation | None = None


@dataclass(frozen=True)
class Phase(Named):
    skips: tuple[SkipWhen, ...] = ()
    variants: tuple[Variant, ...] = ()
    run: Block = ()
    run_cite: Citation | None = None
    opens: tuple[str, ...] = ()
    opens_cite: Citation | None = None
    position: Position | None = None
    # those of `opens` open before the program as well (`opens ... throughout`)
    throughout: tuple[str, ...] = ()
    # its window asks each player in a round (`window round ...`), not the active
    # player alone
    windows: tuple[PhaseWindow, ...] = ()
    kind = "phase"

    @property
    def window(self) -> PhaseWindow | None:
        """The phase's round window, if it says one (`window round ...`)."""
        return self.windows[0] if self.windows else None

    @property
    def opens_first(self) -> tuple[str, ...]:
        """The actions open before the program runs: those open `throughout`, when
        there is a program to open them before (else the phase's one window has
        them)."""
        return self.throughout if self.run or self.variants else ()


@dataclass(frozen=True)
class TurnPassing(Setting):
    direction: str
    setting = "next_turn"


@dataclass(frozen=True)
class Kept(Rule):
    """A list the game keeps (`game.victims`), emptied as each phase begins."""

    ident: str
    kind = "keep"

    @property
    def name(self) -> str:
        return self.ident


@dataclass(frozen=True)
class Anytime(Setting):
    actions: tuple[str, ...]
    setting = "anytime"


@dataclass(frozen=True)
class Action(Named):
    params: tuple[Param, ...] = ()
    requires: Expr | None = None
    body: Block = ()
    kind = "action"


@dataclass(frozen=True)
class StandardActivation(Setting):
    cond: Expr
    setting = "standard_activation"


@dataclass(frozen=True)
class Modifier(Named):
    kind = "modifier"


@dataclass(frozen=True)
class UsedBy(Setting):
    setting = "used_by_last_controller"


@dataclass(frozen=True)
class UnpayableCosts(Setting):
    setting = "unpayable_costs_not_offered"


# battle


@dataclass(frozen=True)
class BattlePart(Named):
    """A program battle steps do (`does`), by name."""

    body: Block = ()
    kind = "part"


@dataclass(frozen=True)
class RecordField(Node):
    name: str
    type: str


@dataclass(frozen=True)
class BattleRecord(Setting):
    """The fields a battle keeps while it is under way."""

    fields: tuple[RecordField, ...]
    setting = "record"


@dataclass(frozen=True)
class BattleStep(Named):
    ops: tuple[str, ...] = ()
    position: Position | None = None
    kind = "step"


@dataclass(frozen=True)
class DicePer(Setting):
    stat: str
    setting = "dice_per"


@dataclass(frozen=True)
class StepWindows(Setting):
    # the steps a window follows (none: each step), and whom it asks after an
    # action (`ask_actor`, `ask_next`; none: the next player, as after each step)
    steps: tuple[str, ...] = ()
    after: str = ""
    setting = "step_windows"


@dataclass(frozen=True)
class SimultaneousSteps(Setting):
    steps: tuple[str, ...]  # consecutive battle steps
    setting = "simultaneous_steps"


@dataclass(frozen=True)
class DropLeavers(Setting):
    """The card lists of the battle's record that drop a card leaving its zone or
    changing controller."""

    fields: tuple[str, ...]
    setting = "drop_leavers"


# chain


@dataclass(frozen=True)
class ChainingActions(Setting):
    actions: tuple[str, ...]
    setting = "chaining"


@dataclass(frozen=True)
class TargetsOnActivation(Setting):
    setting = "targets_on_activation"


@dataclass(frozen=True)
class NewChainAfterResolving(Setting):
    setting = "new_chain_after_resolving"


@dataclass(frozen=True)
class ResponseOrder(Setting):
    direction: str
    # from the left of the last actor (`from_left_of`), or the last actor itself
    # (`from`), asked again after each link it adds
    left: bool = True
    setting = "respond"


@dataclass(frozen=True)
class ResolutionOrder(Setting):
    # only the top link, then the responses again from the active player
    # (`top_link then respond from active`), not every link in turn
    top_link: bool = False
    setting = "resolve_last_in_first_out"


@dataclass(frozen=True)
class NoChainWhileResolving(Setting):
    setting = "no_chaining_while_resolving"


@dataclass(frozen=True)
class DeployedInline(Setting):
    setting = "deployed_spells_inline"


@dataclass(frozen=True)
class PoppedWhileResolving(Setting):
    how: str
    setting = "popped_while_resolving"


# counters


@dataclass(frozen=True)
class Trigger(Node):
    timing: str | None
    events: tuple[str, ...]
    cond: Expr | None = None


@dataclass(frozen=True)
class Counter(Named):
    counter_kind: str = "inert"
    trigger: Trigger | None = None
    from_card: bool = False
    body: Block = ()
    kind = "counter"


@dataclass(frozen=True)
class PoppedBy(Setting):
    setting = "popped_by_placer"


@dataclass(frozen=True)
class CounterHosts(Setting):
    zone: str
    setting = "counters_on"


# keywords and events


@dataclass(frozen=True)
class Keyword(Named):
    params: tuple[Param, ...] = ()
    cost: bool = False
    body: Block = ()
    kind = "keyword"


@dataclass(frozen=True)
class Check(Named):
    """A check made before any player is asked in any window (`checks` section):
    its program runs in each pass of the checks, until a pass changes nothing."""

    body: Block = ()
    kind = "check"


@dataclass(frozen=True)
class Term(Named):
    params: tuple[Param, ...] = ()
    value: Expr | None = None
    builtin: str | None = None
    kind = "term"


@dataclass(frozen=True)
class EventDecl(Named):
    params: tuple[Param, ...] = ()
    kind = "event"


# endgame


@dataclass(frozen=True)
class EndCondition(Named):
    cond: Expr | None = None
    event: str | None = None
    kind = "condition"


@dataclass(frozen=True)
class LoseCondition(Named):
    cond: Expr | None = None
    event: str | None = None
    kind = "lose"


@dataclass(frozen=True)
class HpFloor(Setting):
    floor: int
    setting = "hp_floor"


@dataclass(frozen=True)
class Limit(Named):
    """A bound on the engine's work that an edition states (`kotc.dsl.limits`)."""

    value: int = 0
    kind = "limit"


@dataclass(frozen=True)
class Zombies(Setting):
    setting = "zombies_play_on"


@dataclass(frozen=True)
class Criterion(Named):
    """`keep` players for whom `cond` holds, or those with the `highest` value."""

    cond: Expr | None = None
    value: Expr | None = None
    kind = "criterion"

    @property
    def keep(self) -> bool:
        return self.cond is not None


# legality


@dataclass(frozen=True)
class CleanSlate(Setting):
    edition: int
    verdict: str
    setting = "clean_slate"


@dataclass(frozen=True)
class TextRule(Rule):
    """A legality rule about one exact card text; the text is its name."""

    text: str = ""
    kind = "text"

    @property
    def name(self) -> str:
        return self.text


@dataclass(frozen=True)
class Refurbish(TextRule):
    """The old text reads as the new one (`refurbish` in 17th, `revise` in 11th)."""

    new: str = ""
    verb: str = "refurbish"


@dataclass(frozen=True)
class RevisedLevel(TextRule):
    edition: int = 0


@dataclass(frozen=True)
class Ban(TextRule):
    pass


@dataclass(frozen=True)
class RevisedCost(TextRule):
    edition: int = 0


@dataclass(frozen=True)
class VariableLimit(TextRule):
    variable: str = ""
    max: int = 0


@dataclass(frozen=True)
class TextsMatch(Setting):
    """How listed texts are found in a card: `ignoring_case`, `inside_words`."""

    options: tuple[str, ...] = ()
    setting = "texts_match"


# phrases


@dataclass(frozen=True)
class SameText(Rule):
    """Printed texts (`others`) that stand for `text` wherever texts are matched."""

    text: str = ""
    others: tuple[str, ...] = ()
    kind = "reads"

    @property
    def name(self) -> str:
        return f"{', '.join(self.others)} as {self.text}"


@dataclass(frozen=True)
class SubAbilities(Setting):
    """Whose targets an effect acts on: the ability's (`each_ability`), or each
    sentence's own (`each_sentence`), where `body` is what a sentence that selects
    no targets runs instead of a selection."""

    scope: str = "each_ability"
    body: Block = ()
    setting = "sub_abilities"

    @property
    def own_targets(self) -> bool:
        """Whether each sentence designates its own targets."""
        return self.scope == "each_sentence"


@dataclass(frozen=True)
class Clauses(Setting):
    """Texts that part one sentence into its target selection and its effects."""

    joiners: tuple[str, ...] = ()
    setting = "clauses"


@dataclass(frozen=True)
class Phrase(Named):
    """A printed card text (`[x]` a number, `[counter]` a counter) and its meaning."""

    phrase_kind: str = "effect"
    text: str = ""
    trigger: Trigger | None = None
    cond: Expr | None = None
    modifiers: tuple[str, ...] = ()
    body: Block = ()

    @property
    def kind(self) -> str:  # type: ignore[override]
        return self.phrase_kind

    @property
    def key(self) -> str:
        return f"{self.phrase_kind} {self.name}"


# invariants


@dataclass(frozen=True)
class Invariant(Named):
    """A condition every game state satisfies; with `domain`, for each `element`."""

    cond: Expr | None = None
    element: str | None = None
    domain: Expr | None = None
    kind = "invariant"


# --- files -----------------------------------------------------------------------


SECTIONS = (
    "setup", "cards", "zones", "turn", "actions", "battle", "chain", "counters",
    "keywords", "events", "endgame", "checks", "legality", "phrases", "invariants",
    "limits",
)


@dataclass(frozen=True)
class EditionFile(Node):
    """One parsed rule file, before `extends` is resolved."""

    name: str
    number: int
    game: str | None  # None: the game of the edition it extends
    base: str | None
    base_origin: Origin | None
    source: str | None
    summary: str | None
    contents: tuple[str, ...]
    sections: tuple[tuple[str, tuple[Rule, ...], Origin], ...]
    path: str
