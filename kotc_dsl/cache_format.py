"""The cache's file format: parsed rule files and rulesets as JSON, read back
into the same frozen dataclasses without running any code they name.

A cache directory may be shared or restored from elsewhere, so what is read
from it is data, never instructions: each JSON object names its class by a tag
that must be one of the syntax tree's own dataclasses (or `Ruleset`), with
exactly that class's fields; every array reads back as a tuple (the trees hold
no lists); a mapping is written as its keys and values; a node's origin as
`[file, line, col]`. An entry starts with a
header line giving the format's version, what the entry holds and the SHA-256
of the rest, so a damaged or foreign entry is told apart from a good one before
any of it is read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

from . import ast
from .ruleset import Ruleset

__all__ = ["FORMAT", "CacheFormatError", "decode", "encode"]

# The version of this format; an entry of another version is a miss.
FORMAT = 1

T = TypeVar("T")


class CacheFormatError(ValueError):
    """An entry that is not one this format wrote for the kind asked for."""


def _classes() -> dict[str, type]:
    found: dict[str, type] = {"Ruleset": Ruleset}
    for name, value in vars(ast).items():
        if (isinstance(value, type) and dataclasses.is_dataclass(value)
                and value.__module__ == ast.__name__):
            found[name] = value
    return found


_CLASSES = _classes()
_FIELDS = {name: frozenset(f.name for f in dataclasses.fields(cls))
           for name, cls in _CLASSES.items()}
_TAG = {cls: name for name, cls in _CLASSES.items()}
# Attributes a class sets itself after its fields (a citation's text): made again.
_AFTER: dict[str, Callable[[Any], None]] = {
    name: cls.__post_init__ for name, cls in _CLASSES.items()
    if hasattr(cls, "__post_init__")
}
_MAPPING = "dict"
# Fields that hold where a node was written (half of every tree's objects), each
# written as `[file, line, col]` rather than as an object of its own.
_ORIGINS = frozenset({"origin", "base_origin"})
_new = object.__new__
_set = object.__setattr__


# --- writing ----------------------------------------------------------------------


def encode(value: Any, kind: str) -> bytes:
    """`value` (a tree of kotc's dataclasses, tuples, mappings and scalars) as an
    entry of `kind`.

    Raises:
        CacheFormatError: `value` holds something this format does not write.
        RecursionError: the tree is nested too deeply to write.
        ValueError: an integer too long to write as text.
    """
    payload = json.dumps(_plain(value), ensure_ascii=False, separators=(",", ":"),
                         check_circular=False).encode("utf-8")
    header = {"format": FORMAT, "kind": kind,
              "sha256": hashlib.sha256(payload).hexdigest()}
    return json.dumps(header).encode("utf-8") + b"\n" + payload


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {"@": _MAPPING, "k": [_plain(k) for k in value],
                "v": [_plain(v) for v in value.values()]}
    tag = _TAG.get(type(value))
    if tag is None:
        raise CacheFormatError(f"cannot write a {type(value).__name__}")
    data: dict[str, Any] = {"@": tag}
    for name in _FIELDS[tag]:
        field = getattr(value, name)
        data[name] = ([field.file, field.line, field.col]
                      if name in _ORIGINS and type(field) is ast.Origin
                      else _plain(field))
    return data


# --- reading ----------------------------------------------------------------------


def decode(data: bytes, kind: str, expected: type[T]) -> T:
    """The value of an entry of `kind`, which must be an `expected`.

    Raises:
        CacheFormatError: anything else: another version or kind, a damaged
            entry, a class or field this format does not know, a value of the
            wrong type.
    """
    head, newline, payload = data.partition(b"\n")
    try:
        header = json.loads(head)
    except ValueError:
        raise CacheFormatError("no header") from None
    if not newline or not isinstance(header, dict) or header != {
        "format": FORMAT, "kind": kind, "sha256": hashlib.sha256(payload).hexdigest()
    }:
        raise CacheFormatError("another format, kind or content")
    try:
        value = json.loads(payload, object_hook=_object)
    except (ValueError, RecursionError, TypeError, KeyError) as err:
        raise CacheFormatError(f"unreadable: {type(err).__name__}") from None
    if not isinstance(value, expected):
        raise CacheFormatError(f"holds a {type(value).__name__}, not a "
                               f"{expected.__name__}")
    return value


def _object(data: dict[str, Any]) -> Any:
    """One JSON object as what it tags (called innermost first, by the parser)."""
    tag = data.pop("@", None)
    if tag == _MAPPING:
        keys, values = data.pop("k"), data.pop("v")
        if data or type(keys) is not list or type(values) is not list or len(
                keys) != len(values):
            raise CacheFormatError("a malformed mapping")
        return dict(zip(_tuples(keys), _tuples(values), strict=True))
    if _FIELDS.get(tag) != data.keys():  # an unknown class, a missing or extra field
        raise CacheFormatError(f"an object tagged {tag!r} with fields {sorted(data)}")
    for name, value in data.items():
        if value.__class__ is list:
            data[name] = _origin(value) if name in _ORIGINS else _tuples(value)
    obj: Any = _new(_CLASSES[tag])
    _set(obj, "__dict__", data)  # as pickle does, past `frozen`
    after = _AFTER.get(tag)
    if after is not None:
        after(obj)
    return obj


def _origin(value: list[Any]) -> ast.Origin:
    """An origin written as `[file, line, col]`."""
    if len(value) != 3:
        raise CacheFormatError("a malformed origin")
    file, line, col = value
    if type(file) is not str or type(line) is not int or type(col) is not int:
        raise CacheFormatError("a malformed origin")
    origin = _new(ast.Origin)
    _set(origin, "__dict__", {"file": file, "line": line, "col": col})
    return origin


def _tuples(items: list[Any]) -> tuple[Any, ...]:
    for i, item in enumerate(items):
        if item.__class__ is list:
            items[i] = _tuples(item)
    return tuple(items)
