"""A shipped ruleset with one rule changed or dropped, for tests that show the
engine reads that rule: play differs when the rule does."""

from __future__ import annotations

import dataclasses

from kotc.dsl import Ruleset


def with_rule(rs: Ruleset, section: str, key: str, **fields: object) -> Ruleset:
    """`rs` with the rule `key` of `section` (`"setting respond"`) given `fields`."""
    rules = dict(rs.sections[section])
    rules[key] = dataclasses.replace(rules[key], **fields)
    return dataclasses.replace(rs, sections={**rs.sections, section: rules})


def without_rule(rs: Ruleset, section: str, key: str) -> Ruleset:
    """`rs` with the rule `key` of `section` left out."""
    rules = {k: r for k, r in rs.sections[section].items() if k != key}
    return dataclasses.replace(rs, sections={**rs.sections, section: rules})
