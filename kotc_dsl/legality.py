"""Whether a card or a deck may be played under an edition, from its data only.

Every verdict comes from the edition's rules (card types and stats, the Edition
Indicator rule, the clean slate, refurbished and revised texts, bans, revised
levels and costs, variable limits, deck size, reserves, the Ultra Points cap,
and the phrases a card's text must read as), and every finding cites its rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from . import ast
from .cards import CardDesign, DeckList, Text
from .phrasing import Match, search, substitute
from .reading import AbilityReading, read_card
from .ruleset import Ruleset

# From best to worst; a card's status is its worst finding.
STATUSES = ("legal", "refurbished", "pruned", "banned", "invalid")


@dataclass(frozen=True)
class Finding:
    status: str
    message: str
    origin: ast.Origin
    cite: ast.Citation | None = None

    def __str__(self) -> str:
        cite = f" [{self.cite}]" if self.cite else ""
        return f"{self.origin}: {self.status}: {self.message}{cite}"


# Where a check reports what it finds (a verdict's `findings.append`).
Report = Callable[[Finding], None]


@dataclass
class CardVerdict:
    card: CardDesign
    edition: str
    findings: list[Finding] = field(default_factory=list)
    refurbished_text: str | None = None
    readings: list[AbilityReading] = field(default_factory=list)

    @property
    def status(self) -> str:
        return max((f.status for f in self.findings), key=STATUSES.index, default="legal")

    @property
    def playable(self) -> bool:
        return self.status in ("legal", "refurbished")


@dataclass
class DeckVerdict:
    deck: DeckList
    edition: str
    cards: list[CardVerdict]
    findings: list[Finding] = field(default_factory=list)

    @property
    def status(self) -> str:
        worst = [f.status for f in self.findings] + [c.status for c in self.cards]
        return max(worst, key=STATUSES.index, default="legal")

    @property
    def legal(self) -> bool:
        return self.status in ("legal", "refurbished")


def judge_card(card: CardDesign, rs: Ruleset) -> CardVerdict:
    """Judge one card design under the edition `rs`.

    A card the edition turns away by its Edition Indicator (none shown where one
    is required, or a design edition before a clean slate) is judged no further:
    it was designed under rules the edition no longer reads. Otherwise listed
    texts (bans, revised costs and levels, variable limits) are looked for in the
    printed text and in the text the edition reads the card with, so a
    refurbished text cannot slip past them.
    """
    verdict = CardVerdict(card, rs.name)
    add = verdict.findings.append
    _design_edition(card, rs, add)
    if verdict.findings:
        return verdict
    _anatomy(card, rs, add)
    read_as = _refurbish(verdict, rs)
    texts = (card.text, read_as.text)

    def found(template: str) -> Match | None:
        return next(filter(None, (search(template, t) for t in texts)), None)

    for ban in rs.legality(ast.Ban):
        if found(ban.text):
            add(Finding("banned", f"its text contains \"{ban.text}\"", card.origin,
                        ban.cite))
    for cost in rs.legality(ast.RevisedCost):
        if found(cost.text) and (card.design_edition or 0) < cost.edition:
            add(Finding("banned", f"\"{cost.text}\" needs an Edition Indicator of at "
                                  f"least {cost.edition}", card.origin, cost.cite))
    for level in rs.legality(ast.RevisedLevel):
        if found(level.text) and (card.design_edition or 0) < level.edition:
            add(Finding("pruned", f"\"{level.text}\" had its level revised in edition "
                                  f"{level.edition}; this card was designed for "
                                  f"{card.design_edition}", card.origin, level.cite))
    for limit in rs.legality(ast.VariableLimit):
        hit = found(limit.text)
        if hit and hit.numbers.get(limit.variable, 0) > limit.max:
            add(Finding("banned", f"\"{limit.text}\" sets {limit.variable} above "
                                  f"{limit.max}", card.origin, limit.cite))
    readings, problems = read_card(read_as, rs)
    verdict.readings = readings
    # A banned text has no phrase; the ban, not the reading, is its verdict.
    bans = [rule.text for rule in rs.legality(ast.Ban)]
    for p in problems:
        if not any(search(ban, p.text) for ban in bans):
            add(Finding("invalid", p.message, p.origin))
    return verdict


def _anatomy(card: CardDesign, rs: Ruleset, add: Report) -> None:
    types = rs.card_types
    kind = types.get(card.type)
    if kind is None:
        add(Finding("invalid", f"the {rs.name} edition has no card type '{card.type}' "
                               f"(its types: {', '.join(types)})", card.origin))
        return
    up = rs.setting("cards", "ultra_points_stat")
    allowed = set(kind.stats) | ({"ultra_points"} if up else set())
    for s in card.stats:
        if s.stat not in allowed:
            known = ", ".join(sorted(allowed))
            add(Finding("invalid", f"a {card.type} of the {rs.name} edition has no stat "
                                   f"'{s.stat}' (its stats: {known})", s.origin,
                        kind.cite))
            continue
        floor = rs.stats[s.stat].floor if s.stat in rs.stats else 0
        if floor is not None and s.value < floor:
            stat = rs.stats.get(s.stat)
            add(Finding("invalid", f"{s.stat} {s.value} is below its floor of {floor}",
                        s.origin, stat.cite if stat else None))
    cap = rs.setting("setup", "ultra_points")
    points = card.stat("ultra_points") or 0
    if cap and points > cap.cap:
        add(Finding("invalid", f"the card is worth {points} Ultra Points; a deck may "
                               f"hold at most {cap.cap}", card.origin, cap.cite))
    for name in kind.stats:
        if card.stat(name) is None:
            add(Finding("invalid", f"a {card.type} must print its {name}", card.origin,
                        kind.cite))
    if card.type == "spell" and len(card.abilities) != 1:
        add(Finding("invalid", f"a spell has exactly one ability, not "
                               f"{len(card.abilities)}", card.origin, kind.cite))


def _design_edition(card: CardDesign, rs: Ruleset, add: Report) -> None:
    indicator = rs.setting("setup", "edition_indicator")
    if card.design_edition is None and indicator and indicator.need == "required":
        add(Finding("invalid", "the card has no Edition Indicator", card.origin,
                    indicator.cite))
        return
    slate = rs.setting("legality", "clean_slate")
    if slate and (card.design_edition or 0) < slate.edition:
        shown = card.design_edition or "none"
        add(Finding(slate.verdict, f"designed for edition {shown}, before the "
                                   f"clean-slate edition {slate.edition}", card.origin,
                    slate.cite))


def _refurbish(verdict: CardVerdict, rs: Ruleset) -> CardDesign:
    """The card as the edition reads it (`read_as`); each rule that changed
    something is a finding."""
    card = verdict.card
    new, fired = _read_as(card, rs)
    if fired:
        verdict.refurbished_text = new.text
        for r in fired:
            verdict.findings.append(Finding(
                "refurbished", f"\"{r.text}\" now reads \"{r.new}\"", card.origin,
                r.cite))
    return new


def read_as(card: CardDesign, rs: Ruleset) -> CardDesign:
    """The card as the edition reads it, with refurbished or revised texts swapped
    in: what a game plays, as the card check judges it."""
    return _read_as(card, rs)[0]


def _read_as(card: CardDesign, rs: Ruleset) -> tuple[CardDesign, list[ast.Refurbish]]:
    """The card with the edition's refurbished or revised texts swapped in, and the
    rules that changed something. The rules apply in their order, each to the text
    the earlier ones left, as the 17th rulebook chains "in-play card" into its
    refurbished conditions."""
    rules = rs.legality(ast.Refurbish)
    if not rules:
        return card, []
    fired: dict[str, ast.Refurbish] = {}

    def swap(piece: Text) -> Text:
        text = piece.text
        for r in rules:
            new = substitute(r.text, r.new, text)
            if new != text:
                fired.setdefault(r.key, r)
            text = new
        return replace(piece, text=text)

    def swap_optional(piece: Text | None) -> Text | None:
        return None if piece is None else swap(piece)

    abilities = tuple(
        replace(a, condition=swap_optional(a.condition), cost=swap_optional(a.cost),
                sentences=tuple(swap(s) for s in a.sentences))
        for a in card.abilities)
    if not fired:
        return card, []
    return replace(card, abilities=abilities), list(fired.values())


def judge_deck(deck: DeckList, cards: dict[str, CardDesign], rs: Ruleset) -> DeckVerdict:
    """Judge a deck: every card it names, then the edition's deck rules."""
    names = [e.name for e in deck.entries + deck.reserves]
    verdicts = {n: judge_card(cards[n], rs) for n in dict.fromkeys(names)}
    result = DeckVerdict(deck, rs.name, list(verdicts.values()))
    add = result.findings.append
    main = sum(e.count for e in deck.entries)
    extra = sum(e.count for e in deck.reserves)
    reserves = rs.setting("setup", "reserves")
    size_rule = rs.setting("setup", "deck_size")
    counted = main + extra if reserves and reserves.source == "from_deck" else main
    if size_rule and counted not in size_rule.size:
        add(Finding("invalid", f"the deck has {counted} cards; the {rs.name} edition "
                               f"needs {size_rule.size}", deck.origin, size_rule.cite))
    if reserves is None and extra:
        add(Finding("invalid", f"the {rs.name} edition has no reserves", deck.origin))
    elif (reserves and (extra or reserves.source == "apart")
          and extra not in reserves.size):
        add(Finding("invalid", f"the reserves have {extra} cards; the {rs.name} edition "
                               f"allows {reserves.size}", deck.origin, reserves.cite))
    cap = rs.setting("setup", "ultra_points")
    if cap:
        points = sum(e.count * (cards[e.name].stat("ultra_points") or 0)
                     for e in deck.entries + deck.reserves)
        if points > cap.cap:
            add(Finding("invalid", f"the deck holds {points} Ultra Points; at most "
                                   f"{cap.cap} are allowed", deck.origin, cap.cite))
    return result
