"""The Bot API facts the fake checks, from the committed ``api_limits.json`` beside it.

Decodes request parameters the way the Bot API server does: every value of a form-encoded or
multipart request is a string, and the field's declared type says how to read it (integers,
booleans, JSON-serialized objects). JSON request bodies are coerced the same way.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .model import ApiError

LIMITS_PATH = Path(__file__).resolve().parent / "api_limits.json"


@cache
def limits() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(LIMITS_PATH.read_text(encoding="utf-8"))
    return data


def method_fields(method: str) -> dict[str, dict[str, Any]]:
    fields: dict[str, dict[str, Any]] = limits()["methods"].get(method, {})
    return fields


def type_field(type_name: str, field_name: str) -> dict[str, Any]:
    fields: dict[str, dict[str, Any]] = limits()["types"][type_name]
    return fields[field_name]


def type_fields(type_name: str) -> dict[str, dict[str, Any]]:
    fields: dict[str, dict[str, Any]] = limits()["types"][type_name]
    return fields


def inline_result_types() -> dict[str, str]:
    """Every InlineQueryResult* type name -> its "type" tag (e.g. "article")."""
    types: dict[str, str] = limits()["inline_result_types"]
    return types


def known_methods() -> dict[str, str]:
    """Lower-cased name -> canonical name of every Bot API method (names are case-insensitive)."""
    return {name.lower(): name for name in limits()["all_methods"]}


@dataclass
class Upload:
    """A multipart file part."""

    name: str
    filename: str | None
    content_type: str | None
    data: bytes

    def describe(self) -> dict[str, Any]:
        return {
            "file": self.name,
            "filename": self.filename,
            "content_type": self.content_type,
            "size": len(self.data),
        }


_INT = re.compile(r"^-?\d{1,20}$")


def _coerce(name: str, types: list[str], value: Any) -> Any:
    if isinstance(value, Upload):
        if "InputFile" in types or "InputMedia" in types:
            return value
        raise ApiError.bad_request(f'field "{name}" must be of type {" or ".join(types)}')
    if types == ["Integer"]:
        if isinstance(value, bool):
            raise ApiError.bad_request(f'field "{name}" must be of type Integer')
        if isinstance(value, int):
            return value
        if isinstance(value, str) and _INT.match(value.strip()):
            return int(value)
        raise ApiError.bad_request(f'field "{name}" must be of type Integer')
    if types == ["Integer", "String"]:  # chat_id: number or @username
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        return int(text) if _INT.match(text) else text
    if types == ["Boolean"]:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "1"):
            return True
        if text in ("false", "0", ""):
            return False
        raise ApiError.bad_request(f'field "{name}" must be of type Boolean')
    if types == ["Float"]:
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ApiError.bad_request(f'field "{name}" must be of type Float') from None
    if types == ["String"]:
        return value if isinstance(value, str) else json.dumps(value)
    if "String" in types and isinstance(value, str) and "InputFile" in types:
        return value  # a file_id, URL or attach:// reference
    # objects and arrays: JSON-serialized in form posts
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            raise ApiError.bad_request(f"can't parse {name} JSON object") from None
    return value


def decode_params(method: str, raw: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Coerce ``raw`` by the method's field types; returns (params, unknown parameter names)."""
    fields = method_fields(method)
    params: dict[str, Any] = {}
    unknown: list[str] = []
    for name, value in raw.items():
        spec = fields.get(name)
        if spec is None:
            unknown.append(name)
            params[name] = value
            continue
        if value is None:
            continue
        params[name] = _coerce(name, spec["types"], value)
    for name, spec in fields.items():
        if spec["required"] and name not in params:
            raise ApiError.bad_request(_missing_text(method, name))
    return params, unknown


def _missing_text(method: str, name: str) -> str:
    special = {
        "text": "message text is empty",
        "photo": "there is no photo in the request",
        "callback_query_id": "QUERY_ID_INVALID",
        "media": "there is no media in the request",
    }
    return special.get(name, f"{name} is empty")


def fits(spec: dict[str, Any], value: str) -> bool:
    """True when ``value`` fits ``spec``'s min-max range (characters or UTF-8 bytes)."""
    if "max" not in spec:
        return True
    size = len(value.encode("utf-8")) if spec.get("unit") == "bytes" else len(value)
    return int(spec["min"]) <= size <= int(spec["max"])


def photo_rules() -> dict[str, int]:
    rules: dict[str, int] = limits()["photo"]
    return rules


def entity_types() -> frozenset[str]:
    return frozenset(limits()["entity_types"])
