"""Canonical JSON (RFC 8785) and the content hashes the evaluation contract defines.

Everything that is hashed or written to a fact file goes through :func:`jcs`, so a
value that JCS cannot represent is refused here, once, with a reason code, before
anything touches a repository.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from typing import Any

import rfc8785

from .errors import InputError

MAX_SAFE_INTEGER = 2**53 - 1

JsonValue = Any  # None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]


def check_jcs_value(value: JsonValue, path: str = "$") -> None:
    """Raise InputError(code=...) if JCS cannot represent ``value`` exactly."""
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise InputError(
                f"{path}: integer {value} is beyond ±2^53−1 and cannot be canonicalised",
                code="integer_out_of_range",
            )
        return
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise InputError(f"{path}: {value} is not a JSON number", code="non_finite_number")
        return
    if isinstance(value, str):
        _check_text(value, path)
        return
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            check_jcs_value(item, f"{path}[{i}]")
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InputError(f"{path}: object key {key!r} is not a string", code="bad_key")
            _check_text(key, f"{path} key")
            check_jcs_value(item, f"{path}.{key}")
        return
    raise InputError(f"{path}: {type(value).__name__} is not a JSON value", code="not_json")


def _check_text(text: str, path: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InputError(
            f"{path}: lone surrogate at index {exc.start} cannot be encoded as UTF-8",
            code="lone_surrogate",
        ) from None


class _NotJson(Exception):
    """Raised by :func:`_plain` on anything check_jcs_value refuses (it then says why)."""


#: Floats Python's repr writes as JCS (ECMAScript) does: both write the shortest digits
#: that round-trip, in plain notation inside this range; integral floats differ ("1.0"
#: against "1"), and so does the notation outside it.
_PLAIN_FLOATS = (1e-4, 1e16)


def _plain(value: JsonValue) -> bool:
    """Check ``value`` as :func:`check_jcs_value` does (raising _NotJson instead), and say
    whether Python's json module writes it byte for byte as JCS: every key ASCII (so
    sorting by code point is sorting by UTF-16 unit) and every float in _PLAIN_FLOATS.

    rfc8785 is pure Python (~50 µs for a fact file, several per decision); the json
    module is C. Exact types only: a subclass (an enum, say) takes the reference path.
    """
    kind = type(value)
    if kind is str:
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise _NotJson from None
        return True
    if value is None or kind is bool:
        return True
    if kind is int:
        if abs(value) > MAX_SAFE_INTEGER:
            raise _NotJson
        return True
    if kind is float:
        if not math.isfinite(value):
            raise _NotJson
        return not value.is_integer() and _PLAIN_FLOATS[0] <= abs(value) < _PLAIN_FLOATS[1]
    if kind is dict:
        plain = True
        for key, item in value.items():
            if type(key) is not str:
                raise _NotJson
            key_plain = _plain(key) and key.isascii()
            plain = _plain(item) and key_plain and plain  # the item is always checked
        return plain
    if kind is list or kind is tuple:
        plain = True
        for item in value:
            plain = _plain(item) and plain
        return plain
    try:  # anything else (a subclass, a Mapping): the reference check and path decide
        check_jcs_value(value)
    except InputError:
        raise _NotJson from None
    return False


def _checked_plain(value: JsonValue) -> bool:
    try:
        return _plain(value)
    except _NotJson:
        check_jcs_value(value)  # raises with the path and reason
        raise AssertionError("check_jcs_value accepted what _plain refused") from None


def jcs(value: JsonValue) -> bytes:
    """RFC 8785 bytes of ``value``; refuses NaN, huge integers and lone surrogates."""
    if _checked_plain(value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"),
                          sort_keys=True).encode("utf-8")
    return _reference_jcs(value)


def _reference_jcs(value: JsonValue) -> bytes:
    """JCS by the rfc8785 package (for values :func:`_plain` cannot vouch for)."""
    try:
        return rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, ValueError, TypeError) as exc:  # pragma: no cover
        raise InputError(f"cannot canonicalise value: {exc}", code="not_canonicalisable") from exc


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def evidence_hash(text: str) -> str:
    """sha256 of the UTF-8 evidence span, as in ``evidence.sha256``."""
    _check_text(text, "evidence")
    return sha256_hex(text.encode("utf-8"))


def proposal_id(
    *,
    tenant_id: str,
    subject_id: str,
    scope: Mapping[str, str],
    kind: str,
    normalized_key: str,
    message_id: str,
    start: int,
    end: int,
    stable_candidate_ordinal: int = 0,
    extractor_version: str = "eval-1",
) -> str:
    identity = {
        "schema": 1,
        "tenantId": tenant_id,
        "subjectId": subject_id,
        "scope": {"kind": scope["kind"], "key": scope["key"]},
        "kind": kind,
        "normalizedKey": normalized_key,
        "messageId": message_id,
        "start": start,
        "end": end,
        "stableCandidateOrdinal": stable_candidate_ordinal,
        "extractorVersion": extractor_version,
    }
    return sha256_hex(jcs(identity))


def payload_hash(
    *, value: JsonValue, confidence: float, expires_at: str | None, evidence_hash: str
) -> str:
    payload = {
        "value": value,
        "confidence": confidence,
        "expiresAt": expires_at,
        "evidenceHash": evidence_hash,
    }
    return sha256_hex(jcs(payload))


def loads_strict(text: str | bytes) -> JsonValue:
    """Parse JSON, refusing duplicate keys, NaN/Infinity literals and lone surrogates.

    Python's json accepts all three silently; a memory store must not, because the
    same bytes would then mean different things to different readers.
    """

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, val in items:
            if key in out:
                raise InputError(f"duplicate JSON key {key!r}", code="duplicate_key")
            out[key] = val
        return out

    def bad_constant(name: str) -> Any:
        raise InputError(f"{name} is not valid JSON", code="non_finite_number")

    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_constant=bad_constant)
    except InputError:
        raise
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"malformed JSON: {exc}", code="malformed_json") from None
    check_jcs_value(value)
    return value


def dumps_pretty(value: JsonValue) -> bytes:
    """Canonical key order, one field per line: what fact files look like on disk.

    The bytes are a pure function of the JCS form (parse the JCS, indent it), so a
    file can be checked for canonicity by re-rendering it.
    """
    if _checked_plain(value):  # the same bytes, without the JCS round trip
        return (json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
                ).encode("utf-8")
    canonical = json.loads(_reference_jcs(value))
    return (json.dumps(canonical, ensure_ascii=False, indent=2, sort_keys=False) + "\n").encode(
        "utf-8"
    )
