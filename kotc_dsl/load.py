"""Load rule files: parse, follow `extends`, merge with overrides, validate.

`load_edition(name)` and `load_path(path)` return a validated
`Ruleset` or raise `RulesetError` listing every problem found. Results are cached
by the content of every file involved (see `cache.py`), each file read once, so
a repeated load costs reading and hashing the files and reading one entry.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import stat
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from textx import TextXError

from . import ast, cache
from .convert import convert_edition
from .errors import Diagnostic, RulesetError
from .language import EDITIONS_DIR, parse
from .ruleset import Ruleset
from .sources import kind_of, read_regular
from .suggest import syntax_hint
from .validate import validate

SUFFIX = ".kotc"
_HEADER = re.compile(r'^\s*edition\s+"([^"]+)"', re.MULTILINE)

__all__ = [
    "RulesetError",
    "check_paths",
    "edition_files",
    "find_edition",
    "load_edition",
    "load_path",
]


# --- finding editions -----------------------------------------------------------

# How much of a file is read to find its `edition "NAME"` header.
_HEADER_BYTES = 16384


def edition_files(directory: Path = EDITIONS_DIR) -> dict[str, Path]:
    """The edition files of a directory, by edition name (from each file's header);
    only regular files count, and only their first lines are read."""
    found: dict[str, Path] = {}
    for path in sorted(directory.glob(f"*{SUFFIX}")):
        name = _header_name(path)
        if name is not None:
            found.setdefault(name, path)
    return found


def _header_name(path: Path) -> str | None:
    """The edition a file's header names (its stem when it names none); None for
    what is not a readable regular file."""
    try:
        head = read_regular(path, _HEADER_BYTES)
    except OSError:
        return None
    match = _HEADER.search(head.decode("utf-8", errors="replace"))
    return match.group(1) if match else path.stem


def find_edition(name: str, near: Path | None = None) -> Path | None:
    """The file of edition `name`: beside `near` first, then among the shipped ones.

    In each directory, `NAME.kotc` if it is a regular file, else a file whose
    header names the edition (read only as far as the header)."""
    for directory in ([near] if near else []) + [EDITIONS_DIR]:
        candidate = directory / f"{name}{SUFFIX}"
        if "/" not in name and "\\" not in name and _is_regular(candidate):
            return candidate
        by_header = edition_files(directory).get(name)
        if by_header:
            return by_header
    return None


def _is_regular(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long
        return False


# --- parsing one file -----------------------------------------------------------


@dataclass(frozen=True)
class _Source:
    """One rule file as read once: what is parsed and what keys the cache are the
    same bytes."""

    path: Path
    text: str
    digest: str


def _read(path: Path) -> _Source:
    """Read a rule file once, located problems for what cannot be read."""
    try:
        data = read_regular(path)
    except OSError as err:
        problem = f"cannot read: {err.strerror or err}"
        raise RulesetError([Diagnostic(ast.Origin(str(path), 1, 1), problem)]) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raw = err.object
        line = raw.count(b"\n", 0, err.start) + 1
        col = err.start - raw.rfind(b"\n", 0, err.start)
        raise RulesetError(
            [
                Diagnostic(
                    ast.Origin(str(path), line, col),
                    f"not a UTF-8 text file ({err.reason})",
                )
            ]
        ) from None
    return _Source(path, text, hashlib.sha256(data).hexdigest())


def parse_file(path: Path) -> ast.EditionFile:
    """Parse and convert one file, with no inheritance; syntax errors are located."""
    return _parse(_read(path))


def _parse(source: _Source) -> ast.EditionFile:
    path = source.path
    key = cache.key("file", str(path), source.digest)
    hit = cache.get(key, ast.EditionFile)
    if hit is not None:
        return hit
    try:
        model = parse(source.text, str(path))
    except RecursionError:
        raise RulesetError(
            [Diagnostic(ast.Origin(str(path), 1, 1), "nested too deeply to read")]
        ) from None
    except TextXError as err:
        origin = ast.Origin(err.filename or str(path), err.line or 1, err.col or 1)
        message = _syntax_message(err)
        message += syntax_hint(source.text, origin.line, origin.col, message)
        raise RulesetError([Diagnostic(origin, message)]) from None
    parsed = convert_edition(model, str(path))
    cache.put(key, parsed)
    cache.put(cache.key("head", str(path), source.digest), _head(parsed))
    return parsed


def _head(parsed: ast.EditionFile) -> ast.EditionFile:
    """A parsed file without its rules: what following `extends` needs."""
    return dataclasses.replace(parsed, sections=())


def _parse_head(source: _Source) -> tuple[ast.EditionFile, bool]:
    """The file's header (name, base and where they are written) from the cache,
    or the whole file parsed when the cache has no header for it; and whether it
    is the whole file."""
    hit = cache.get(cache.key("head", str(source.path), source.digest), ast.EditionFile)
    return (hit, False) if hit is not None else (_parse(source), True)


def _syntax_message(err: TextXError) -> str:
    message = str(err.message if hasattr(err, "message") else err)
    message = re.sub(r"^.*?:\d+:\d+:\s*", "", message)
    return f"syntax error: {message.split(' => ')[0]}"


# --- extends --------------------------------------------------------------------


def lineage(path: Path) -> list[ast.EditionFile]:
    """The file and the editions it extends, newest first; a cycle is an error."""
    return [_whole(link) for link in _sources(path)]


# A file of a lineage: as read, and parsed whole or only its header from the cache.
_Link = tuple[_Source, ast.EditionFile, bool]


def _whole(link: _Link) -> ast.EditionFile:
    source, parsed, whole = link
    return parsed if whole else _parse(source)


def _sources(path: Path) -> list[_Link]:
    """Each file of the lineage as read, with its header, newest first."""
    chain: list[_Link] = []
    seen: set[Path] = set()
    current: Path | None = path.resolve()
    while current is not None:
        source = _read(current)
        head, whole = _parse_head(source)
        if current in seen:
            names = " -> ".join([h.name for _, h, _ in chain] + [head.name])
            last = chain[-1][1]
            raise RulesetError(
                [Diagnostic(last.base_origin or last.origin, f"extends cycle: {names}")]
            )
        seen.add(current)
        chain.append((source, head, whole))
        if head.base is None:
            break
        base = find_edition(head.base, current.parent)
        if base is None:
            raise RulesetError(
                [
                    Diagnostic(
                        head.base_origin or head.origin,
                        f"extends unknown edition '{head.base}' "
                        f"(no {head.base}{SUFFIX} beside this file or among the "
                        f"shipped editions)",
                    )
                ]
            )
        current = base.resolve()
    return chain


# --- merging --------------------------------------------------------------------


def merge(chain: list[ast.EditionFile]) -> tuple[Ruleset, list[Diagnostic]]:
    """Apply the files base first; later files add, `override` or `remove` rules."""
    problems: list[Diagnostic] = []
    sections: dict[str, OrderedDict[str, ast.Rule]] = {
        s: OrderedDict() for s in ast.SECTIONS
    }
    removed: dict[str, ast.Removal] = {}
    for depth, part in enumerate(reversed(chain)):
        base_name = chain[len(chain) - depth].name if depth else None
        by_section: dict[str, list[ast.Rule]] = {}
        for section, rules, _ in part.sections:  # a section may be written twice
            by_section.setdefault(section, []).extend(rules)
        for section, rules in by_section.items():
            _merge_section(sections[section], tuple(rules), section, base_name, problems)
            removed.update((f"{section} {r.target_key}", r) for r in rules
                           if isinstance(r, ast.Removal) and r.removed_name != "*")
    top = chain[0]
    ruleset = Ruleset(
        name=top.name,
        number=top.number,
        game=_game(chain, problems),
        source=top.source,
        summary=top.summary,
        lineage=tuple(f.name for f in chain),
        files=tuple(f.path for f in chain),
        contents={f.name: f.contents for f in chain},
        sections={s: dict(v) for s, v in sections.items()},
        origin=top.origin,
        removals={k: r for k, r in removed.items()
                  if r.target_key not in sections[k.split(" ", 1)[0]]},
    )
    return ruleset, problems


def _game(chain: list[ast.EditionFile], problems: list[Diagnostic]) -> str:
    """The game the lineage's rules are of: named by the file that extends none,
    and by any other file only as the same game (an edition cannot change games)."""
    root = chain[-1]
    if root.game is None:
        problems.append(Diagnostic(root.origin, (
            f"edition '{root.name}' extends none, so it names its game: "
            f'edition "{root.name}" number {root.number} game "..."')))
        return ""
    for f in chain[:-1]:
        if f.game is not None and f.game != root.game:
            problems.append(Diagnostic(f.origin, (
                f"edition '{f.name}' says game '{f.game}', but it extends "
                f"'{root.name}', of the game '{root.game}'")))
    return root.game


def _merge_section(
    merged: OrderedDict,
    rules: tuple,
    section: str,
    base: str | None,
    problems: list[Diagnostic],
) -> None:
    inherited = set(merged)
    written: set[str] = set()
    for rule in rules:

        def report(message: str, rule: ast.Rule = rule) -> None:
            problems.append(Diagnostic(rule.origin, message))

        if isinstance(rule, ast.Removal) and rule.removed_name == "*":
            prefix = f"{rule.removed_kind} "
            doomed = [k for k in inherited if k.startswith(prefix)]
            if not doomed:
                report(
                    f"remove {rule.removed_kind} *: no {rule.removed_kind} rules in "
                    f"{_where(section, base)}"
                )
            for k in doomed:
                merged.pop(k, None)
            continue
        if isinstance(rule, ast.Removal):
            if rule.target_key in written:
                report(f"remove {rule.target_key}: removed twice in this file")
                continue
            written.add(rule.target_key)
            if rule.target_key not in inherited:
                report(
                    f"remove {rule.target_key}: no such {rule.removed_kind} in "
                    f"{_where(section, base)}"
                )
            else:
                merged.pop(rule.target_key, None)
            continue
        key = rule.key
        if key in written:
            report(f"{key} is defined twice in this file")
            continue
        written.add(key)
        if rule.override:
            if key not in inherited:
                report(f"override {key}: overrides nothing in {_where(section, base)}")
                continue
            position = getattr(rule, "position", None)
            if position is None:
                merged[key] = rule
                continue
            merged.pop(key)
        elif key in inherited:
            report(
                f"{key} is already defined by base edition '{base}'; "
                f"write `override` to change it"
            )
            continue
        _insert(merged, rule, problems)


def _where(section: str, base: str | None) -> str:
    return (
        f"base edition '{base}' ({section})"
        if base
        else "this edition, which extends none"
    )


def _insert(merged: OrderedDict, rule: ast.Rule, problems: list[Diagnostic]) -> None:
    position = getattr(rule, "position", None)
    if position is None:
        merged[rule.key] = rule
        return
    anchor = f"{rule.kind} {position.anchor}"
    if anchor not in merged:
        problems.append(
            Diagnostic(
                position.origin,
                f"{position.where} {position.anchor}: "
                f"no {rule.kind} '{position.anchor}' to place it by",
            )
        )
        merged[rule.key] = rule
        return
    items = list(merged.items())
    index = [k for k, _ in items].index(anchor) + (position.where == "after")
    items.insert(index, (rule.key, rule))
    merged.clear()
    merged.update(items)


# --- public entry points --------------------------------------------------------


def load_path(path: str | Path, use_cache: bool = True) -> Ruleset:
    """Load, merge and validate the edition file at `path`.

    Raises:
        RulesetError: with every problem found, each located.
    """
    path = Path(path)
    if not path.exists():
        raise RulesetError([Diagnostic(ast.Origin(str(path), 1, 1), "no such rule file")])
    with cache.enabled(use_cache):
        sources = _sources(path)
        key = cache.key("ruleset", *[f"{s.path}\0{s.digest}" for s, _, _ in sources])
        hit = cache.get(key, Ruleset)
        if hit is not None:
            return hit
        ruleset, problems = merge([_whole(link) for link in sources])
        problems += validate(ruleset)
        if problems:
            raise RulesetError(problems)
        cache.put(key, ruleset)
        return ruleset


def load_edition(name_or_path: str | Path, use_cache: bool = True) -> Ruleset:
    """Load a shipped edition by its name, or any edition file by its path."""
    candidate = Path(name_or_path)
    if candidate.suffix == SUFFIX or candidate.is_file():
        return load_path(candidate, use_cache)
    found = find_edition(str(name_or_path))
    if found is None:
        known = ", ".join(edition_files()) or "none"
        raise RulesetError(
            [
                Diagnostic(
                    ast.Origin(str(name_or_path), 0, 0),
                    f"unknown edition (known: {known})",
                )
            ]
        )
    return load_path(found, use_cache)


def check_paths(paths: list[str | Path]) -> tuple[list[Ruleset], list[Diagnostic]]:
    """Load every edition file under `paths` (files or directories); collect problems."""
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for p in map(Path, paths):
        try:
            mode = p.stat().st_mode
        except OSError as err:
            problems.append(Diagnostic(ast.Origin(str(p), 1, 1), (
                "no such file or directory" if isinstance(err, FileNotFoundError)
                else f"cannot read: {err.strerror or err}")))
            continue
        if stat.S_ISDIR(mode):
            files.extend(f for f in sorted(p.glob(f"*{SUFFIX}")) if _is_regular(f))
        elif stat.S_ISREG(mode):
            files.append(p)
        else:
            problems.append(Diagnostic(ast.Origin(str(p), 1, 1),
                                       f"{kind_of(mode)}, not a rule file"))
    rulesets = []
    for f in files:
        try:
            rulesets.append(load_path(f))
        except RulesetError as err:
            problems.extend(err.diagnostics)
    return rulesets, sorted(set(problems), key=lambda d: (d.origin.file, d.origin.line))
