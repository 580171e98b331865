"""The languages coloured: Pygments lexers (docs, `kotc show`) and TextMate
grammars (editors), both from the grammars' own keywords."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest
from kotc.dsl import lexer as lexer_module
from kotc.dsl import textmate
from kotc.dsl.lexer import keywords, lexer_for
from pygments import lex
from pygments.lexers import get_lexer_by_name
from pygments.token import Comment, Error, Keyword, Name, String

ROOT = Path(__file__).resolve().parents[2]
SYNTAXES = ROOT / "editors" / "vscode" / "syntaxes"
SAMPLES = {"kotc": "editions/*.kotc", "kcard": "decks/*/*.kcard",
           "kdeck": "decks/*/*.kdeck", "kscn": "tests/scenarios/*/*.kscn"}


def test_the_modules_examples_hold():
    assert doctest.testmod(lexer_module).failed == 0
    assert doctest.testmod(textmate).failed == 0


@pytest.mark.parametrize("language", sorted(SAMPLES))
def test_every_shipped_file_lexes_without_an_error_token(language):
    files = sorted(ROOT.glob(SAMPLES[language]))
    assert files
    for path in files:
        tokens = list(lex(path.read_text(encoding="utf-8"), lexer_for(language)))
        assert not [v for t, v in tokens if t in Error], path
        assert any(t in Keyword for t, _ in tokens), path


def test_the_lexers_are_found_by_name_as_pygments_plugins():
    for name in ("kotc", "kcard", "kdeck", "kscn"):
        assert type(get_lexer_by_name(name)) is type(lexer_for(name))


def test_a_rule_is_coloured_word_by_word():
    text = ('keyword recycle "Recycle" (target: card) @ "Keywords" {\n'
            '  shuffle deck // x\n}')
    tokens = [(t, v) for t, v in lex(text, lexer_for("kotc")) if v.strip()]
    kinds = dict((v, t) for t, v in tokens)
    assert kinds["keyword"] in Keyword and kinds["shuffle"] in Keyword
    assert kinds["recycle"] in Name and kinds['"Recycle"'] in String
    assert kinds['"Keywords"'] in String.Doc  # a citation
    assert kinds["// x"] in Comment


def test_a_card_ability_is_prose_not_keywords():
    text = 'card "Imp" minion {\n  level 1\n  ability "X" { Target each card. }\n}'
    tokens = list(lex(text, lexer_for("kcard")))
    prose = "".join(v for t, v in tokens if t in String.Doc)
    assert "Target each card." in prose  # `each` is a keyword of rules, not of prose


def test_keywords_come_from_the_grammars():
    assert "shuffle" in keywords("kotc") and "interpretation" in keywords("kotc")
    # a pile is named by the ruleset (`reserves { ... }`): no keyword of its own
    assert "cards" in keywords("kdeck") and "reserves" not in keywords("kdeck")
    assert "shuffle" not in keywords("kdeck")
    assert "expect" in keywords("kscn") and "flavor" in keywords("kscn")


@pytest.mark.parametrize("language", sorted(textmate.NAMES))
def test_the_checked_in_textmate_grammars_are_up_to_date(language):
    _, suffix = textmate.NAMES[language]
    shipped = json.loads((SYNTAXES / f"{suffix}.tmLanguage.json").read_text("utf-8"))
    assert shipped == textmate.grammar(language), (
        "write them again: python -m kotc.dsl.textmate editors/vscode/syntaxes")


@pytest.mark.parametrize("language", sorted(textmate.NAMES))
def test_the_textmate_patterns_match_what_they_name(language):
    g = textmate.grammar(language)

    def patterns(items):
        for p in items:
            yield p
            yield from patterns(p.get("patterns", []))

    found = list(patterns(g["patterns"])) + list(
        patterns(g["repository"]["comments"]["patterns"]))
    for p in found:
        for key in ("match", "begin", "end"):
            if key in p:
                re.compile(p[key])  # the subset used reads the same in Oniguruma
    by_name = {p.get("name"): p for p in found}
    assert re.fullmatch(by_name["keyword.other.kotc"]["match"], keywords(language)[-1])
    assert re.search(by_name["meta.citation.kotc"]["match"], '@ "Battles"')


def test_the_vscode_extension_names_every_grammar():
    manifest = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text())
    grammars = manifest["contributes"]["grammars"]
    assert sorted(g["language"] for g in grammars) == sorted(textmate.NAMES)
    for g in grammars:
        assert (ROOT / "editors" / "vscode" / g["path"]).is_file()
    languages = manifest["contributes"]["languages"]
    assert all(lang["extensions"][0] == "." + lang["id"] for lang in languages)
