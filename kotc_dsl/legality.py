"""Whether a card or a deck may be played under an edition, from its data only.

A verdict is only ever a status an edition's rules give, with the rule (and so
the rulebook section) that gives it: the Edition Indicator rule (`invalid` in
the 13th and 17th), the clean slate (`banned` or `pruned`, as each rulebook
words it), refurbished (17th) or revised (11th) texts, bans, revised costs and
variable limits (`banned`), revised levels (`pruned`). A deck is `illegal` when
it breaks a deck-building requirement, each cited.

What kotc cannot read (a sentence no phrase of the edition reads, a card type or
a stat the edition's cards do not have) is no verdict: it is reported apart, as
unread, with where it is and the closest phrase. A card kotc could not read
cannot be played in a game, whatever its verdict. Notes say what the edition
ignores or reads differently on a card without judging it (a stat it does not
have, a value below a stat's floor).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from . import ast
from .cards import CardDesign, DeckList, Text
from .errors import Diagnostic
from .phrasing import Match, search, substitute
from .reading import AbilityReading, Unread, read_card, wording
from .ruleset import Ruleset

# The statuses the editions' rules give a card, best first; a card's status is
# its worst finding. `legal` is the rulebooks' own word for a card no rule turns
# away ("legal cards", Setup and Deck Building).
STATUSES = ("legal", "revised", "refurbished", "pruned", "banned", "invalid")
# The statuses of a card that may be played: read with its new text, if any.
PLAYABLE = ("legal", "revised", "refurbished")
# A deck's: it meets every deck-building requirement of the edition, or not.
DECK_STATUSES = ("legal", "illegal")
# The status a text-revision rule gives, by its verb in the rule file.
_REVISED_STATUS = {"refurbish": "refurbished", "revise": "revised"}


@dataclass(frozen=True)
class Finding:
    """A rule's verdict on a card or a deck: the status, why, where, which rule."""

    status: str
    message: str
    origin: ast.Origin
    cite: ast.Citation | None = None

    def __str__(self) -> str:
        cite = f" [{self.cite}]" if self.cite else ""
        return f"{self.origin}: {self.status}: {self.message}{cite}"


@dataclass(frozen=True, order=True)
class Note(Diagnostic):
    """What the edition ignores or reads differently on a card, without a verdict."""

    cite: ast.Citation | None = field(default=None, compare=False)


# Where a check reports what it finds (a verdict's `findings.append`).
Report = Callable[[Finding], None]


@dataclass
class CardVerdict:
    """A card's verdict under an edition, and what kotc could not read of it.

    `findings` are the rules' verdicts; `unread` the printed parts no rule of the
    edition reads (each located, with the closest phrase); `notes` what the
    edition ignores on the card.
    """

    card: CardDesign
    edition: str
    findings: list[Finding] = field(default_factory=list)
    unread: list[Unread] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    refurbished_text: str | None = None
    readings: list[AbilityReading] = field(default_factory=list)

    @property
    def status(self) -> str:
        return max((f.status for f in self.findings), key=STATUSES.index, default="legal")

    @property
    def playable(self) -> bool:
        """Whether the rules let the card be played (read or not)."""
        return self.status in PLAYABLE

    @property
    def read(self) -> bool:
        """Whether kotc read every part of the card, so a game can play it."""
        return not self.unread


@dataclass
class DeckVerdict:
    deck: DeckList
    edition: str
    cards: list[CardVerdict]
    findings: list[Finding] = field(default_factory=list)

    @property
    def status(self) -> str:
        """`legal` when every card may be played and every deck rule is met."""
        good = not self.findings and all(c.playable for c in self.cards)
        return "legal" if good else "illegal"

    @property
    def legal(self) -> bool:
        return self.status == "legal"

    @property
    def unread_cards(self) -> list[CardVerdict]:
        """The cards kotc could not read in full: a game cannot play them."""
        return [c for c in self.cards if not c.read]


def judge_card(card: CardDesign, rs: Ruleset) -> CardVerdict:
    """Judge one card design under the edition `rs`.

    A card the edition turns away by its Edition Indicator (none shown where one
    is required, or a design edition before a clean slate) gets no further
    verdict: it was designed under rules the edition no longer reads. Listed
    texts (bans, revised costs and levels, variable limits) are looked for in the
    printed text and in the text the edition reads the card with, so a
    refurbished text cannot slip past them. The card is read in every case, and
    what cannot be read is reported apart from the verdict.

    Args:
        card: the design, as a card file gives it.
        rs: the edition.

    Returns:
        The verdict: the rules' findings, the unread parts, notes, the text the
        edition reads the card as (where a rule changed it) and the readings of
        its abilities.
    """
    verdict = CardVerdict(card, rs.name)
    add = verdict.findings.append
    turned_away = _design_edition(card, rs, add)
    read_as = card if turned_away else _refurbish(verdict, rs)
    if not turned_away:
        _listed_texts(card, read_as, rs, add)
    _anatomy(card, rs, verdict)
    readings, unread = read_card(read_as, rs)
    verdict.readings = readings
    verdict.unread.extend(unread)
    return verdict


def _listed_texts(card: CardDesign, read_as: CardDesign, rs: Ruleset,
                  add: Report) -> None:
    """The verdicts of the edition's lists of texts (bans, revised costs, revised
    levels, variable limits), looked for in the printed and the read text."""
    texts = (card.text, read_as.text)
    how = wording(rs)

    def found(template: str) -> Match | None:
        return next(filter(None, (search(template, t, how) for t in texts)), None)

    for ban in rs.legality(ast.Ban):
        if found(ban.text):
            add(Finding("banned", f"its text contains \"{ban.text}\"", card.origin,
                        ban.cite))
    for cost in rs.legality(ast.RevisedCost):
        if found(cost.text) and (card.design_edition or 0) < cost.edition:
            shown = (f"shows {card.design_edition}" if card.design_edition
                     else "shows none")
            add(Finding("banned", f"\"{cost.text}\" needs an Edition Indicator of at "
                                  f"least {cost.edition}; the card {shown}", card.origin,
                        cost.cite))
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


def _anatomy(card: CardDesign, rs: Ruleset, verdict: CardVerdict) -> None:
    """The card's type and printed stats as the edition's cards have them: what
    it cannot read is unread, what it ignores or reads differently a note."""
    unread, note = verdict.unread.append, verdict.notes.append
    kind = rs.card_types.get(card.type)
    if kind is None:
        cites = {str(t.cite) for t in rs.card_types.values() if t.cite}
        unread(Unread(card.origin, f"the {rs.name} edition has no card type "
                                   f"'{card.type}' (its types: "
                                   f"{', '.join(rs.card_types)}){_cited(*cites)}",
                      card.type))
        return
    up = rs.setting("cards", "ultra_points_stat")
    allowed = set(kind.stats) | ({"ultra_points"} if up else set())
    for s in card.stats:
        if s.stat not in allowed:
            known = ", ".join(sorted(allowed))
            note(Note(s.origin, f"{s.stat} {s.value} is not read: a {card.type} of the "
                                f"{rs.name} edition has no {s.stat} (its stats: "
                                f"{known})", kind.cite))
            continue
        stat = rs.stats.get(s.stat)
        if stat is not None and stat.floor is not None and s.value < stat.floor:
            note(Note(s.origin, f"{s.stat} {s.value} is below its floor: it counts as "
                                f"{stat.floor}", stat.cite))
    cap = rs.setting("setup", "ultra_points")
    points = card.stat("ultra_points") or 0
    if cap and points > cap.cap:
        note(Note(card.origin, f"the card is worth {points} Ultra Points, more than a "
                               f"deck may hold ({cap.cap})", cap.cite))
    for name in kind.stats:
        if card.stat(name) is None:
            label = rs.stats[name].label if name in rs.stats else name
            unread(Unread(card.origin, f"a {card.type} of the {rs.name} edition prints "
                                       f"its {label}; this card prints none"
                                       f"{_cited(str(kind.cite))}", name))
    if card.type == "spell" and len(card.abilities) != 1:
        unread(Unread(card.origin, f"a spell has a single ability, not "
                                   f"{len(card.abilities)}{_cited(str(kind.cite))}",
                      card.type))


def _cited(*cites: str) -> str:
    """Citations as a message ends with them: ` [17th §Card Types and Layout]`."""
    shown = sorted(c for c in cites if c != "None")
    return f" [{'; '.join(shown)}]" if shown else ""


def _design_edition(card: CardDesign, rs: Ruleset, add: Report) -> bool:
    """The Edition Indicator rule and the clean slate: whether either turned the
    card away."""
    indicator = rs.setting("setup", "edition_indicator")
    if card.design_edition is None and indicator and indicator.verdict:
        add(Finding(indicator.verdict, "the card has no Edition Indicator", card.origin,
                    indicator.cite))
        return True
    slate = rs.setting("legality", "clean_slate")
    if slate and (card.design_edition or 0) < slate.edition:
        shown = card.design_edition or "none"
        add(Finding(slate.verdict, f"designed for edition {shown}, before the "
                                   f"clean-slate edition {slate.edition}", card.origin,
                    slate.cite))
        return True
    return False


def _refurbish(verdict: CardVerdict, rs: Ruleset) -> CardDesign:
    """The card as the edition reads it (`read_as`); each rule that changed
    something is a finding, in the rule's own word (refurbished, revised)."""
    card = verdict.card
    new, fired = _read_as(card, rs)
    if fired:
        verdict.refurbished_text = new.text
        for r in fired:
            verdict.findings.append(Finding(
                _REVISED_STATUS[r.verb], f"\"{r.text}\" now reads \"{r.new}\"",
                card.origin, r.cite))
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
    how = wording(rs)

    def swap(piece: Text) -> Text:
        text = piece.text
        for r in rules:
            new = substitute(r.text, r.new, text, how)
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
    """Judge a deck: every card it names, then the edition's deck rules.

    Args:
        deck: the deck list.
        cards: the designs it names, by name.
        rs: the edition.

    Returns:
        Each card's verdict, and the deck rules the deck breaks (`illegal`, each
        cited).
    """
    names = [e.name for e in deck.all_entries]
    verdicts = {n: judge_card(cards[n], rs) for n in dict.fromkeys(names)}
    result = DeckVerdict(deck, rs.name, list(verdicts.values()))

    def broken(message: str, cite: ast.Citation | None) -> None:
        result.findings.append(Finding("illegal", message, deck.origin, cite))

    rules = rs.piles
    held = {p.name: sum(e.count for e in p.entries) for p in deck.piles}
    counted = sum(e.count for e in deck.entries) + sum(
        n for name, n in held.items()
        if name in rules and rules[name].source == "from_deck")
    size_rule = rs.setting("setup", "deck_size")
    if size_rule and counted not in size_rule.size:
        broken(f"the deck has {counted} cards; the {rs.name} edition needs "
               f"{size_rule.size}", size_rule.cite)
    for pile in deck.piles:
        if pile.name not in rules and held[pile.name]:
            _no_pile(rs, pile.name, broken)
    for name, rule in rules.items():
        n = held.get(name, 0)
        if (n or rule.source == "apart") and n not in rule.size:
            what = "the reserves have" if name == "reserves" else f"the {name} pile has"
            allows = "allows" if name == "reserves" else "needs"
            broken(f"{what} {n} cards; the {rs.name} edition {allows} {rule.size}",
                   rule.cite)
        _pile_types(rs, deck, rule, cards, broken)
    cap = rs.setting("setup", "ultra_points")
    if cap:
        points = ultra_points(deck, cards)
        if points > cap.cap:
            broken(f"the deck holds {points} Ultra Points; at most {cap.cap} are "
                   f"allowed", cap.cite)
    copies = rs.setting("setup", "copies")
    if copies:
        held_of: dict[str, int] = {}
        for e in deck.all_entries:
            held_of[e.name] = held_of.get(e.name, 0) + e.count
        for name, n in held_of.items():
            if n > copies.cap:
                broken(f"the deck holds {n} copies of \"{name}\"; the {rs.name} "
                       f"edition allows at most {copies.cap} of one name", copies.cite)
    return result


def ultra_points(deck: DeckList, cards: dict[str, CardDesign]) -> int:
    """The Ultra Points a deck holds: each card's, as many times as the deck holds
    it, its piles counted (a card printing none is worth 0)."""
    return sum(e.count * (cards[e.name].stat("ultra_points") or 0)
               for e in deck.all_entries)


def _no_pile(rs: Ruleset, name: str,
             broken: Callable[[str, ast.Citation | None], None]) -> None:
    """A deck's pile the ruleset does not have (or has removed)."""
    if name == "reserves":
        dropped = rs.removal("setup", "setting reserves")
        broken(f"the {rs.name} edition has no reserves",
               dropped.cite if dropped else None)
        return
    dropped = rs.removal("setup", f"pile {name}")
    known = ", ".join(sorted(rs.piles)) or "none"
    broken(f"the {rs.name} edition has no pile '{name}' (its piles: {known})",
           dropped.cite if dropped else None)


def _pile_types(rs: Ruleset, deck: DeckList, rule: ast.PileRule,
                cards: dict[str, CardDesign],
                broken: Callable[[str, ast.Citation | None], None]) -> None:
    """A pile's cards start in its zone: each must be of a type that zone holds."""
    zone = rs.zones.get(rule.zone) if rule.zone else None
    if zone is None or not zone.holds:
        return
    for pile in deck.piles:
        if pile.name != rule.name:
            continue
        for e in pile.entries:
            kind = cards[e.name].type
            if kind not in zone.holds:
                broken(f"'{e.name}' in the {rule.name} pile is a {kind}; its zone, "
                       f"{zone.name}, holds {', '.join(zone.holds)}", rule.cite)
