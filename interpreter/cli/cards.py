"""`kotc card` and `kotc deck`: card designs and decks judged under an edition.

`kotc card check FILE --edition E` gives each card of a card file the verdict
the edition's rules give it (legal; refurbished or revised, with the text the
edition reads it as; pruned, banned or invalid, each citing the rule), and,
apart from the verdict, what kotc could not read of it (each located, with the
edition's closest phrase). `kotc deck check FILE` does the same for a deck's
cards and the edition's deck rules, and says how many cards it could not read;
`kotc deck coverage` lists the keywords and counters no starter deck uses, and
which of them the rules' own flow uses all the same (every game exercises those).

Exit status: 0 when every verdict lets the cards be played and every card was
read (or, for coverage, every keyword and counter is used, by a card or by the
rules' own flow); 1 otherwise; 2 when
the input itself is malformed: a syntax error, an unknown card name or edition,
a missing file. Malformed input is reported as `file:line:col: message`, never
as a traceback.
"""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from kotc.dsl import (
    Diagnostic,
    Ruleset,
    RulesetError,
    ast,
    edition_files,
    load_edition,
    load_path,
)
from kotc.dsl.cards import CardDesign, DeckList, deck_edition_file, load_cards, load_deck
from kotc.dsl.coverage import (
    Coverage,
    card_readings,
    coverage,
)
from kotc.dsl.legality import (
    PLAYABLE,
    STATUSES,
    CardVerdict,
    DeckVerdict,
    Finding,
    Note,
    judge_card,
    judge_deck,
    ultra_points,
)
from kotc.dsl.reading import Unread
from kotc.dsl.shipped import all_starter_deck_files

from .common import Console, display_origin, display_path, format_option

PLAYABLE_EXIT, NOT_PLAYABLE, MALFORMED = 0, 1, 2

_STATUS_STYLE = {"legal": "green", "refurbished": "cyan", "revised": "cyan",
                 "pruned": "yellow", "banned": "red", "invalid": "red", "illegal": "red"}


class Malformed(Exception):
    """Input that cannot be judged at all: located problems, or a bad argument."""

    def __init__(self, diagnostics: Iterable[Diagnostic], argument: str | None = None):
        super().__init__()
        self.diagnostics = list(diagnostics)
        self.argument = argument


# --- kotc card --------------------------------------------------------------------


def card_command(args: argparse.Namespace, con: Console) -> int:
    """Check card designs under an edition.

    Each card in FILE (a .kcard file) gets the verdict the edition's rules give
    it, citing the rule: legal; refurbished or revised, with the text the edition
    reads it as; pruned, banned or invalid. Apart from the verdict, each part
    kotc cannot read (a sentence no phrase of the edition reads, a card type the
    edition lacks) is listed as unread, located in the file, with the closest
    phrase; notes say what the edition ignores on a card. Exit status: 0 when
    every card may be played and was read, 1 otherwise, 2 when the file or the
    edition cannot be read.
    """
    return _guarded(con, lambda: _card_check(args, con))


def _card_check(args: argparse.Namespace, con: Console) -> int:
    rs = _edition(args.edition)
    cards = _read(lambda: load_cards(args.file))
    verdicts = [judge_card(c, rs) for c in cards]
    worst = _worst(v.status for v in verdicts)
    unread = [v for v in verdicts if not v.read]
    if args.format == "json":
        con.json({"file": _path(args.file), "edition": rs.name,
                  "status": worst, "unread_cards": len(unread),
                  "cards": [_card_json(v) for v in verdicts]})
    else:
        for v in verdicts:
            _print_card(v, con)
        tally = _tally(v.status for v in verdicts) + _not_read(len(unread))
        con.print(con.style(f"{plural(len(verdicts), 'card')} under the {rs.name} "
                            f"edition: {tally}", _STATUS_STYLE[worst]))
    return _exit(worst, not unread)


def card_arguments(parser: argparse.ArgumentParser) -> None:

    actions = parser.add_subparsers(dest="card_action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check", help="judge every card of a card file under an edition",
        description=inspect.cleandoc(card_command.__doc__ or ""),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("file", metavar="FILE", help="a .kcard file")
    check.add_argument("--edition", "-e", required=True, metavar="EDITION",
                       help="a shipped edition's name, or a .kotc file")
    format_option(check)


# --- kotc deck --------------------------------------------------------------------


def deck_command(args: argparse.Namespace, con: Console) -> int:
    """Check decks, and which keywords and counters the starter decks use.

    `deck check FILE` judges a .kdeck file: every card it names, then the
    edition's deck rules (size, reserves, Ultra Points); the deck is legal when
    every card may be played and every rule is met. It also says how many cards
    kotc could not read (a game cannot play them), and what of each. The
    edition is the deck's own unless --edition names another. `deck coverage
    [EDITION]` lists the keywords and counters (and, for information, terms and
    modifiers) that no starter deck of the edition uses, and which of them the
    rules' own flow uses (the draw of each turn, the battle's parts): every game
    exercises those. Exit status: 0 when legal and every card was read (or no
    keyword or counter is left to no game), 1 when not, 2 when a file or an
    edition cannot be read.
    """
    run = _deck_check if args.deck_action == "check" else _deck_coverage
    return _guarded(con, lambda: run(args, con))


def _deck_check(args: argparse.Namespace, con: Console) -> int:
    deck, cards = _read(lambda: load_deck(args.file))
    rs = _edition(args.edition) if args.edition else _deck_edition(deck)
    verdict = judge_deck(deck, cards, rs)
    read = not verdict.unread_cards
    if args.format == "json":
        con.json(_deck_json(verdict, cards))
        return _exit(verdict.status, read)
    size, _, points = _deck_sums(deck, cards)
    extra = "".join(f", {n} in {pile.name}" for pile in deck.piles
                    if (n := sum(e.count for e in pile.entries)))
    extra += f", {points} Ultra Points" if points else ""
    con.print(f"{_where(deck.origin)}: deck \"{deck.name}\" under the "
              f"{rs.name} edition: "
              + con.style(verdict.status, "bold", _STATUS_STYLE[verdict.status])
              + f" ({size} cards{extra})")
    for f in verdict.findings:
        con.print("  " + _finding_text(f, verdict.edition))
    for v in verdict.cards:
        if v.status != "legal" or v.unread or v.notes:
            _print_card(v, con, indent="  ")
    con.print(f"{plural(len(verdict.cards), 'different card')}: "
              f"{_tally(v.status for v in verdict.cards)}"
              f"{_not_read(len(verdict.unread_cards))}")
    return _exit(verdict.status, read)


def _deck_coverage(args: argparse.Namespace, con: Console) -> int:
    names = [args.edition] if args.edition else list(edition_files())
    files = (sorted(Path(args.decks).glob("*/*.kdeck")) if args.decks
             else all_starter_deck_files())
    decks = [_read(lambda p=p: load_deck(p)) for p in files]
    reports: list[tuple[Coverage, list[DeckList]]] = []
    for name in names:
        rs = _edition(name)
        own = [(d, c) for d, c in decks if rs.name == d.edition]
        readings = card_readings((c[e.name] for d, c in own for e in d.entries), rs)
        reports.append((coverage(rs, readings), [d for d, _ in own]))
    complete = all(cov.complete for cov, _ in reports)
    if args.format == "json":
        con.json([_coverage_json(cov, own) for cov, own in reports])
    else:
        for cov, own in reports:
            _print_coverage(cov, own, con)
    return PLAYABLE_EXIT if complete else NOT_PLAYABLE


def deck_arguments(parser: argparse.ArgumentParser) -> None:

    actions = parser.add_subparsers(dest="deck_action", metavar="ACTION", required=True)
    doc = inspect.cleandoc(deck_command.__doc__ or "")
    check = actions.add_parser(
        "check", help="judge a deck and its cards under an edition", description=doc,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("file", metavar="FILE", help="a .kdeck file")
    check.add_argument("--edition", "-e", metavar="EDITION",
                       help="judge under this edition instead of the deck's own")
    format_option(check)
    cover = actions.add_parser(
        "coverage", help="list the keywords and counters no starter deck uses",
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    cover.add_argument("edition", nargs="?", metavar="EDITION",
                       help="one edition (default: every shipped edition)")
    cover.add_argument("--decks", metavar="DIR",
                       help="the folder of deck folders (default: the starter decks)")
    format_option(cover)


# --- reading input ----------------------------------------------------------------


def _guarded(con: Console, run: Callable[[], int]) -> int:
    """Run a subcommand; malformed input becomes located messages and status 2."""
    try:
        return run()
    except Malformed as err:
        if err.argument is not None:
            con.error(f"kotc: {err.argument}")
        for d in err.diagnostics:
            con.error(f"{con.style(_where(d.origin), 'bold')}: {d.message}")
        return MALFORMED


def _read(load: Callable[[], Any]) -> Any:
    try:
        return load()
    except RulesetError as err:
        raise Malformed(err.diagnostics) from None


def _edition(name: str) -> Ruleset:
    """An edition named on the command line: a shipped one's name or a .kotc file."""
    try:
        return load_edition(name)
    except RulesetError as err:
        if [d.origin.file for d in err.diagnostics] == [name] and not Path(name).exists():
            known = ", ".join(edition_files()) or "none"
            raise Malformed([], f"unknown edition '{name}'; choose one of: {known} "
                                f"(or the path of a .kotc file)") from None
        raise Malformed(err.diagnostics) from None


def _deck_edition(deck: DeckList) -> Ruleset:
    """The deck's own edition, looked for beside the deck, then among the shipped
    ones; an unknown one is located at the deck."""
    found = deck_edition_file(deck)
    if found is None:
        known = ", ".join(edition_files()) or "none"
        message = (f"deck \"{deck.name}\": unknown edition '{deck.edition}' (none "
                   f"beside the deck; shipped: {known})")
        raise Malformed([Diagnostic(deck.origin, message)])
    try:
        return load_path(found)
    except RulesetError as err:
        raise Malformed(err.diagnostics) from None


# --- output -----------------------------------------------------------------------


def _path(file: str) -> str:

    return display_path(file)


def _where(origin: ast.Origin) -> str:

    return display_origin(origin)


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"



def _worst(statuses: Iterable[str]) -> str:
    return max(statuses, key=STATUSES.index, default="legal")


def _tally(statuses: Iterable[str]) -> str:
    """How many of each status, best first: `6 legal, 2 pruned`."""
    statuses = list(statuses)
    parts = [f"{statuses.count(s)} {s}" for s in STATUSES if s in statuses]
    return ", ".join(parts) or "none"


def _exit(status: str, read: bool) -> int:
    """0 for a verdict that lets the cards be played, every card read; else 1."""
    return PLAYABLE_EXIT if status in PLAYABLE and read else NOT_PLAYABLE


def _not_read(n: int) -> str:
    """The tally's tail for the cards kotc could not read: `; 2 cards not read`."""
    return f"; {plural(n, 'card')} not read" if n else ""


def _inherited(cite: ast.Citation | None, edition: str) -> bool:
    """Whether a rule the verdict under `edition` cites is of an earlier rulebook."""
    return cite is not None and cite.edition != edition


def _cite_text(cite: ast.Citation | None, edition: str) -> str:
    """A rule's citation as a verdict shows it: ` [EDITION §Section]`, saying so where the
    rule is inherited from an earlier edition's rulebook."""
    if cite is None:
        return ""
    inherited = f", inherited by the {edition}" if _inherited(cite, edition) else ""
    return f" [{cite}{inherited}]"


def _finding_text(f: Finding, edition: str) -> str:
    return f"{_where(f.origin)}: {f.status}: {f.message}{_cite_text(f.cite, edition)}"


def _unread_text(u: Unread) -> str:
    return f"{_where(u.origin)}: unread: {u.message}"


def _note_text(n: Note, edition: str) -> str:
    return f"{_where(n.origin)}: note: {n.message}{_cite_text(n.cite, edition)}"


def _print_card(v: CardVerdict, con: Console, indent: str = "") -> None:
    card = v.card
    status = con.style(v.status, "bold", _STATUS_STYLE[v.status])
    read = "" if v.read else "; " + con.style("not read in full", "yellow")
    con.print(f"{indent}{_where(card.origin)}: {card.name}: {status}{read}")
    if v.refurbished_text is not None:
        con.print(f"{indent}    reads as: \"{v.refurbished_text}\"")
    for f in v.findings:
        con.print(f"{indent}    {_finding_text(f, v.edition)}")
    for u in v.unread:
        con.print(f"{indent}    {_unread_text(u)}")
    for n in v.notes:
        con.print(f"{indent}    {_note_text(n, v.edition)}")


def _origin_json(origin: ast.Origin) -> dict:
    return {"file": _path(origin.file), "line": origin.line,
            "col": origin.col}


def _finding_json(f: Finding, edition: str) -> dict:
    return {"status": f.status, "message": f.message, **_origin_json(f.origin),
            "cite": str(f.cite) if f.cite else None,
            "inherited": _inherited(f.cite, edition)}


def _unread_json(u: Unread) -> dict:
    closest = u.closest
    return {"text": u.text, "message": u.message, **_origin_json(u.origin),
            "closest": closest.text if closest else None,
            "closest_cite": str(closest.cite) if closest and closest.cite else None}


def _note_json(n: Note) -> dict:
    return {"message": n.message, **_origin_json(n.origin),
            "cite": str(n.cite) if n.cite else None}


def _card_json(v: CardVerdict) -> dict:
    card = v.card
    return {"name": card.name, "type": card.type, "design_edition": card.design_edition,
            "status": v.status, "read": v.read, **_origin_json(card.origin),
            "refurbished_text": v.refurbished_text,
            "findings": [_finding_json(f, v.edition) for f in v.findings],
            "unread": [_unread_json(u) for u in v.unread],
            "notes": [_note_json(n) for n in v.notes]}


def _deck_sums(deck: DeckList, cards: dict[str, CardDesign]) -> tuple[int, int, int]:
    size = sum(e.count for e in deck.entries)
    reserves = sum(e.count for e in deck.set_aside)
    return size, reserves, ultra_points(deck, cards)


def _deck_json(v: DeckVerdict, cards: dict[str, CardDesign]) -> dict:
    size, reserves, points = _deck_sums(v.deck, cards)
    return {"file": _path(v.deck.path), "deck": v.deck.name,
            "edition": v.edition, "status": v.status, "size": size,
            "reserves": reserves, "ultra_points": points,
            "unread_cards": len(v.unread_cards),
            "findings": [_finding_json(f, v.edition) for f in v.findings],
            "cards": [_card_json(c) for c in v.cards]}


def _print_coverage(cov: Coverage, decks: list[DeckList], con: Console) -> None:
    names = ", ".join(f"\"{d.name}\"" for d in decks) or "no starter decks"
    state = con.style("complete" if cov.complete else "incomplete",
                      "green" if cov.complete else "red")
    con.print(con.style(f"{cov.edition}", "bold") + f" ({names}): {state}")
    for usage in cov.kinds:
        line = f"  {usage.kind}: {len(usage.used)}/{usage.total} used"
        if usage.idle:
            line += "; unused: " + ", ".join(usage.idle)
        if usage.by_rules:
            line += "; no card, but the rules' own flow: " + ", ".join(usage.by_rules)
        con.print(line)


def _coverage_json(cov: Coverage, decks: list[DeckList]) -> dict:
    return {"edition": cov.edition, "complete": cov.complete,
            "decks": [_path(d.path) for d in decks],
            **{u.kind: {"used": list(u.used), "unused": list(u.unused),
                        "by_rules": list(u.by_rules)}
               for u in cov.kinds}}
