"""Run the code blocks of a documentation page, in order, as a reader would.

Each fenced block is run by its language:

- `kotc`, `kcard`, `kdeck`, `kscn` with `title="FILE"`: written to FILE in the
  working folder, then checked (`kotc check`, `kotc card check`, `kotc deck
  check`, `kotc test`); without a title, a rule file's fragment is checked
  inside a small edition that extends the 17th, in the section an HTML comment
  before it names (`<!-- docs: section=keywords -->`);
- `console`: each `$ command` is run by the shell; the lines after it are the
  output it must print (`...` stands for any lines);
- `python`: run by the Python of `--kotc`'s folder (with `title="FILE"`, written
  to FILE first, as a module later blocks use);
- `json`: must parse.

An HTML comment just before a block can say more: `exit=N` (the status every
command of the block must end with, 0 by default), `edition=NAME` (for a card
file's check), `check=fails` (a file that is meant to be refused), `needs=MODULE`
(a block that needs an optional package, such as an extra brings: passed over,
the reason kept in `Page.skipped`, where that Python cannot import it).

Run it from the command line on a page to follow it in a fresh folder:
`python tests/docs/docrunner.py docs/tutorial.md --kotc PATH/TO/bin`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(
    r"^(?P<indent>[ ]*)```(?P<lang>[\w-]*)(?P<attrs>[^\n]*)\n"
    r"(?P<body>.*?)^(?P=indent)```[ ]*$", re.MULTILINE | re.DOTALL)
DIRECTIVE = re.compile(r"<!--\s*docs:\s*(?P<args>[^>]*?)\s*-->\s*$")
ATTR = re.compile(r'(\w+)="([^"]*)"')
RUN = {"kotc", "kcard", "kdeck", "kscn", "console", "python", "json"}


@dataclass
class Block:
    lang: str
    body: str
    line: int
    attrs: dict[str, str] = field(default_factory=dict)
    directives: dict[str, str] = field(default_factory=dict)


def blocks(text: str) -> list[Block]:
    """The fenced code blocks of a Markdown text, with their attributes and the
    directives of an HTML comment just before each."""
    found = []
    for m in FENCE.finditer(text):
        before = text[: m.start()].rstrip("\n").splitlines()
        directives: dict[str, str] = {}
        if before and (d := DIRECTIVE.search(before[-1])):
            directives = dict(kv.split("=", 1) for kv in d["args"].split())
        indent = len(m["indent"])
        body = "\n".join(line[indent:] for line in m["body"].splitlines()) + "\n"
        found.append(Block(m["lang"], body, text.count("\n", 0, m.start()) + 1,
                           dict(ATTR.findall(m["attrs"])), directives))
    return found


class Failure(Exception):
    pass


class Page:
    """Runs one page's blocks in a working folder with `bin_dir`'s kotc first on
    the PATH."""

    def __init__(self, path: Path, folder: Path, bin_dir: Path):
        self.path, self.folder, self.bin_dir = path, folder, bin_dir
        self.env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
                    "NO_COLOR": "1", "COLUMNS": "100", "HOME": str(folder),
                    "KOTC_CACHE_DIR": os.environ.get("KOTC_CACHE_DIR", "off")}
        self.env.pop("PAGER", None)
        self.skipped: list[str] = []  # blocks passed over, and why

    def run(self) -> int:
        """Run every block; returns how many ran. Raises Failure on the first
        that does not do what the page says."""
        text = self.path.read_text(encoding="utf-8")
        ran = 0
        for block in blocks(text):
            where = f"{self.path}:{block.line}"
            if block.lang not in RUN:
                lang = block.lang or "(none)"
                raise Failure(f"{where}: a ```{lang} block cannot be run "
                              f"(use one of: {', '.join(sorted(RUN))})")
            needs = block.directives.get("needs")
            if needs and not self._importable(needs):
                self.skipped.append(f"{where}: needs {needs}, not installed")
                ran += 1
                continue
            try:
                getattr(self, f"_{block.lang}")(block)
            except Failure as err:
                raise Failure(f"{where}: {err}") from None
            ran += 1
        return ran

    def _importable(self, module: str) -> bool:
        python = self.bin_dir / "python"
        python = python if python.exists() else Path(sys.executable)
        code, _ = self.shell(f"{shlex.quote(str(python))} -c "
                             f"{shlex.quote(f'import {module}')}")
        return code == 0

    def shell(self, command: str) -> tuple[int, str]:
        code, out, err = self.shell3(command)
        return code, out + err

    def shell3(self, command: str) -> tuple[int, str, str]:
        done = subprocess.run(["bash", "-c", command], cwd=self.folder, env=self.env,
                              capture_output=True, text=True, timeout=600)
        return done.returncode, done.stdout, done.stderr

    def _expect_status(self, block: Block, command: str, code: int, out: str) -> None:
        want = int(block.directives.get("exit", "0"))
        if code != want:
            raise Failure(f"`{command}` exited {code}, not {want}:\n{out}")

    def _console(self, block: Block) -> None:
        command, expected = None, []
        steps: list[tuple[str, list[str]]] = []
        for line in block.body.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    steps.append((command, expected))
                command, expected = line[2:], []
            elif command is not None:
                expected.append(line)
        if command is not None:
            steps.append((command, expected))
        if not steps:
            raise Failure("a console block with no `$ command`")
        for command, expected in steps:
            code, stdout, stderr = self.shell3(command)
            out = stdout + stderr
            self._expect_status(block, command, code, out)
            # what the page shows is standard output, or both (a progress bar
            # on standard error need not be shown)
            if expected and not any(matches(text.rstrip("\n").splitlines(), expected)
                                    for text in (stdout, out)):
                raise Failure(f"`{command}` printed:\n{out}\nnot as the page says:\n"
                              + "\n".join(expected))

    def _python(self, block: Block) -> None:
        """A script, run; with a title, a module written under that name (and run,
        so that it at least imports)."""
        name = block.attrs.get("title", ".docs_block.py")
        script = self.folder / name
        script.write_text(block.body, encoding="utf-8")
        python = self.bin_dir / "python"
        python = python if python.exists() else Path(sys.executable)
        code, out = self.shell(f"{shlex.quote(str(python))} {shlex.quote(name)}")
        if "title" not in block.attrs:
            script.unlink()
        self._expect_status(block, "python", code, out)

    def _json(self, block: Block) -> None:
        try:
            json.loads(block.body)
        except ValueError as err:
            raise Failure(f"not JSON: {err}") from None

    def _file(self, block: Block, command: str) -> None:
        code, out = self.shell(command)
        fails = block.directives.get("check") == "fails"
        if (code != 0) != fails:
            raise Failure(f"`{command}` exited {code}:\n{out}")

    def _kotc(self, block: Block) -> None:
        name = block.attrs.get("title")
        if name is None:
            section = block.directives.get("section")
            if block.body.lstrip().startswith(("edition", "//")):
                name = ".docs_fragment.kotc"
                text = block.body
            elif section is None:
                raise Failure("a rule fragment needs <!-- docs: section=NAME -->")
            else:
                name = ".docs_fragment.kotc"
                text = fragment(section, block.body)
            (self.folder / name).write_text(text, encoding="utf-8")
        else:
            (self.folder / name).write_text(block.body, encoding="utf-8")
        self._file(block, f"kotc check {shlex.quote(name)}")

    def _kcard(self, block: Block) -> None:
        name = block.attrs.get("title", ".docs_cards.kcard")
        (self.folder / name).write_text(block.body, encoding="utf-8")
        edition = block.directives.get("edition", "17th")
        self._file(block, f"kotc card check {shlex.quote(name)} --edition {edition}")

    def _kdeck(self, block: Block) -> None:
        name = block.attrs.get("title")
        if name is None:
            raise Failure("a deck block needs a title (its file name)")
        (self.folder / name).write_text(block.body, encoding="utf-8")
        self._file(block, f"kotc deck check {shlex.quote(name)}")

    def _kscn(self, block: Block) -> None:
        name = block.attrs.get("title", ".docs_ruling.kscn")
        (self.folder / name).write_text(block.body, encoding="utf-8")
        self._file(block, f"kotc test {shlex.quote(name)}")


_CONTENTS: list[str] = []


def fragment(section: str, body: str) -> str:
    """A rule fragment inside a small edition extending the 17th, which may cite
    any section of the 17th's rulebook."""
    if not _CONTENTS:
        done = subprocess.run(["kotc", "show", "17th", "--format", "json"],
                              capture_output=True, text=True, check=True)
        sections = json.loads(done.stdout)
        _CONTENTS.extend(_cited(sections))
    contents = ", ".join(json.dumps(c) for c in _CONTENTS)
    return (f'edition "docs" number 99 extends "17th"\n  contents {{ {contents} }}\n'
            f"{section} {{\n{body}}}\n")


def _cited(shown: dict) -> list[str]:
    found: list[str] = []
    for rules in shown["sections"].values():
        for rule in rules:
            cite = rule.get("citation") or {}
            if cite.get("section") and cite["section"] not in found:
                found.append(cite["section"])
    for extra in ("Keywords", "Setup", "Counters", "Endgame", "Battles", "Turn Order"):
        if extra not in found:
            found.append(extra)
    return found


def matches(actual: list[str], expected: list[str]) -> bool:
    """Whether output lines match the page's: line for line (trailing spaces
    aside), `...` standing for any number of lines."""
    actual = [a.rstrip() for a in actual]
    expected = [e.rstrip() for e in expected]

    def match(i: int, j: int) -> bool:
        if j == len(expected):
            return i == len(actual)
        if expected[j] == "...":
            return any(match(k, j + 1) for k in range(i, len(actual) + 1))
        return i < len(actual) and actual[i] == expected[j] and match(i + 1, j + 1)

    return match(0, 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="+", type=Path)
    parser.add_argument("--kotc", type=Path, default=Path(sys.executable).parent,
                        help="the folder of the kotc to run (default: this Python's)")
    args = parser.parse_args()
    for page in args.pages:
        with tempfile.TemporaryDirectory(prefix="kotc-docs-") as folder:
            try:
                ran = Page(page.resolve(), Path(folder), args.kotc.resolve()).run()
            except Failure as err:
                print(f"FAIL {err}", file=sys.stderr)
                return 1
            print(f"{page}: {ran} blocks ran")
    return 0


if __name__ == "__main__":
    sys.exit(main())
