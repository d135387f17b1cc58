"""Field types as ``Annotated`` hints: check a JSON value against one, or write its
JSON Schema. The machinery behind :mod:`gammoneye.engine.events`.

A field type is a plain type (``bool``, ``int``, ``float``, ``str``, ``None``), a
``Literal``, a union, a ``tuple`` (fixed or ``tuple[X, ...]``), a ``dict`` (any JSON
object, nested at most :data:`MAX_DEPTH` deep) or a dataclass of such fields that checks
them itself (its ``__post_init__`` calls :func:`check_fields`), optionally ``Annotated``
with a :class:`Range`, a :class:`Pattern` and a :class:`Doc`. :func:`check_value` and
:func:`value_schema` read the same hint, so what the checks accept and what the schema
says cannot drift apart.

>>> Die = Annotated[int, Range(1, 6), Doc("one die")]
>>> check_value([6, 4], tuple[Die, Die], "dice")
(6, 4)
>>> try:
...     check_value([6, 7], tuple[Die, Die], "dice")
... except BadValue as e:
...     print(e.where, e.message)
dice[1] expected an integer 1..6, got 7
>>> value_schema(Die)
{'description': 'one die', 'type': 'integer', 'minimum': 1, 'maximum': 6}
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

# --- the annotations ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Range:
    """An integer bound (inclusive) attached to a field type with ``Annotated``."""

    minimum: int | None = None
    maximum: int | None = None

    def describe(self) -> str:
        if self.minimum is not None and self.maximum is not None:
            return f"{self.minimum}..{self.maximum}"
        if self.minimum is not None:
            return f">= {self.minimum}"
        return f"<= {self.maximum}"


@dataclass(frozen=True, slots=True)
class Doc:
    """A field's description (JSON Schema ``description``), attached with ``Annotated``."""

    text: str


@dataclass(frozen=True, slots=True)
class Pattern:
    """A regular expression a string field must match (JSON Schema ``pattern``)."""

    regex: str
    meaning: str


# --- checking values against the field types --------------------------------------------


class BadValue(Exception):
    """A value that is not of its field type: ``where`` names the field (``dice[1]``,
    ``suggestions[0].play``), ``message`` says what was expected."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


#: How deep lists and objects may nest in a value (``[[1]]`` is 2 deep). Python's json
#: and ``repr`` recurse, so a deeper value could run them out of stack; it is refused
#: as "nested too deep" instead, the same wherever it is checked.
MAX_DEPTH = 100

_HINTS: dict[type, dict[str, Any]] = {}


def field_hints(cls: type) -> dict[str, Any]:
    """The type hints of ``cls``'s fields, ``Annotated`` extras kept (cached)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls, include_extras=True)
    return hints


def is_required(f: dataclasses.Field[Any]) -> bool:
    """A field without a default must be on every line (it may still be null)."""
    return f.default is dataclasses.MISSING


def too_deep(value: object) -> bool:
    """Whether lists, tuples and dicts nest in ``value`` more than :data:`MAX_DEPTH`
    deep (found without recursing; a value that contains itself is too deep)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth > MAX_DEPTH:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def short_text(value: object) -> str:
    """``value`` for an error message: as JSON where it is JSON, cut to 40 characters."""
    if too_deep(value):
        return f"a value nested too deep (more than {MAX_DEPTH} levels)"
    text = json.dumps(value) if _is_json(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_json(value: object) -> bool:
    """Whether ``value`` is JSON data; only for values not :func:`too_deep`."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def check_value(value: object, hint: Any, where: str) -> Any:
    """``value`` converted to ``hint`` (lists to tuples, objects to dataclasses), or
    :class:`BadValue`."""
    origin = get_origin(hint)
    if origin is Annotated:
        base, *extras = get_args(hint)
        out = check_value(value, base, where)
        for extra in extras:
            if isinstance(extra, Range):
                low, high = extra.minimum, extra.maximum
                if (low is not None and out < low) or (high is not None and out > high):
                    raise BadValue(where, f"expected an integer {extra.describe()}, got {out}")
            elif isinstance(extra, Pattern) and not re.fullmatch(extra.regex, out):
                raise BadValue(where, f"expected {extra.meaning}, got {short_text(out)}")
        return out
    if origin is Union or origin is types.UnionType:
        args = get_args(hint)
        if value is None:
            if type(None) in args:
                return None
            raise BadValue(where, "must not be null")
        messages = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return check_value(value, arg, where)
            except BadValue as e:
                if e.where != where:  # failed inside a matching shape: that error is the one
                    raise
                messages.append(e.message)
        nullable = "" if type(None) not in args else " or null"
        raise BadValue(where, " or ".join(messages) + nullable)
    if origin is Literal:
        allowed = get_args(hint)
        if isinstance(value, str) and value in allowed:
            return value
        raise BadValue(
            where, f"expected one of {', '.join(map(repr, allowed))}; got {short_text(value)}"
        )
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise BadValue(where, f"expected true or false, got {short_text(value)}")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise BadValue(where, f"expected an integer, got {short_text(value)}")
    if hint is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            try:
                number = float(value)
            except OverflowError:
                raise BadValue(
                    where, "expected a finite number, got an integer too large for a float"
                ) from None
            if not math.isfinite(number):
                raise BadValue(where, f"expected a finite number, got {value}")
            return value if isinstance(value, float) else number
        raise BadValue(where, f"expected a number, got {short_text(value)}")
    if hint is str:
        if isinstance(value, str):
            return value
        raise BadValue(where, f"expected a string, got {short_text(value)}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise BadValue(where, f"expected a list, got {short_text(value)}")
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            item_hints = [args[0]] * len(value)
        else:
            item_hints = list(args)
            if len(value) != len(args):
                raise BadValue(where, f"expected {len(args)} items, got {short_text(value)}")
        items = tuple(
            check_value(item, h, f"{where}[{i}]")
            for i, (item, h) in enumerate(zip(value, item_hints, strict=True))
        )
        return value if items == value and isinstance(value, tuple) else items
    if origin is dict:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise BadValue(where, f"expected a JSON object, got {short_text(value)}")
        if too_deep(value):
            raise BadValue(where, f"nested too deep (more than {MAX_DEPTH} levels)")
        if not _is_json(value):
            raise BadValue(where, "expected JSON values only (no NaN, no other types)")
        return value
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if isinstance(value, hint):
            return value  # checked when it was made
        if not isinstance(value, Mapping):
            raise BadValue(where, f"expected an object, got {short_text(value)}")
        names = [f.name for f in dataclasses.fields(hint)]
        for name in value:
            if name not in names:
                raise BadValue(f"{where}.{name}", "unknown field")
        for name in names:
            if name not in value:
                raise BadValue(f"{where}.{name}", "missing")
        kwargs = {name: value[name] for name in names}
        try:
            return hint(**kwargs)  # it checks its fields (once): check_fields
        except ValueError:
            check_fields(hint, kwargs, where)  # the field at fault, named from ``where``
            raise
    raise TypeError(f"no check for field type {hint!r}")


def check_fields(cls: type, values: Mapping[str, Any], where: str = "") -> dict[str, Any]:
    """``values`` (one for each field of the dataclass ``cls``) checked against the field
    types and converted, or :class:`BadValue` naming the field (``where.name``)."""
    hints = field_hints(cls)
    prefix = f"{where}." if where else ""
    return {
        f.name: check_value(values[f.name], hints[f.name], prefix + f.name)
        for f in dataclasses.fields(cls)
    }


def to_json(value: object) -> Any:
    """A checked value back as JSON data: tuples to lists, dataclasses to objects."""
    if isinstance(value, tuple):
        return [to_json(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


# --- the JSON Schema ---------------------------------------------------------------------


def value_schema(hint: Any) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the values :func:`check_value` accepts."""
    origin = get_origin(hint)
    if origin is Annotated:
        base, *extras = get_args(hint)
        out = value_schema(base)
        for extra in extras:
            if isinstance(extra, Range):
                if extra.minimum is not None:
                    out["minimum"] = extra.minimum
                if extra.maximum is not None:
                    out["maximum"] = extra.maximum
            elif isinstance(extra, Pattern):
                out["pattern"] = extra.regex
            elif isinstance(extra, Doc):
                out = {"description": extra.text, **out}
        return out
    if origin is Union or origin is types.UnionType:
        return {"anyOf": [value_schema(arg) for arg in get_args(hint)]}
    if origin is Literal:
        values = list(get_args(hint))
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    simple = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}
    if hint in simple:
        return {"type": simple[hint]}
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": value_schema(args[0])}
        return {
            "type": "array",
            "prefixItems": [value_schema(arg) for arg in args],
            "items": False,
            "minItems": len(args),
            "maxItems": len(args),
        }
    if origin is dict:
        return {"type": "object"}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return object_schema(hint, {})
    raise TypeError(f"no schema for field type {hint!r}")


def object_schema(cls: type, head: dict[str, Any]) -> dict[str, Any]:
    """The schema of a dataclass as a closed JSON object; ``head`` are properties
    (required) to put before its fields."""
    properties = dict(head)
    required = list(head)
    hints = field_hints(cls)
    for f in dataclasses.fields(cls):
        properties[f.name] = value_schema(hints[f.name])
        if is_required(f):
            required.append(f.name)
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
