"""Model validation: exactly the contract's fields, nothing smuggled, clear reasons."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import message, proposal
from memrepo.errors import InputError
from memrepo.proposal import (
    MAX_ID_LENGTH,
    MAX_VALUE_BYTES,
    parse_message,
    parse_proposal,
    proposal_json_schema,
)


def _good() -> dict[str, Any]:
    msg = message("Remember that I use pnpm for every project.")
    return proposal(msg, "Remember that I use pnpm")


def test_a_good_proposal_parses_and_derives_its_id() -> None:
    p = parse_proposal(_good())
    assert p.proposal_id == p.computed_proposal_id()
    assert len(p.payload_hash) == 64
    assert p.to_json()["normalizedKey"] == "package_manager"


@pytest.mark.parametrize(
    ("mutate", "code"),
    [
        (lambda d: d.update(explicit=True), "unknown_field"),
        (lambda d: d.update(tier="auto"), "unknown_field"),
        (lambda d: d["evidence"].update(origin="user"), "unknown_field"),
        (lambda d: d.pop("evidence"), "missing_field"),
        (lambda d: d.pop("tenantId"), "missing_field"),
        (lambda d: d.update(confidence="high"), "schema"),
        (lambda d: d.update(confidence=True), "schema"),
        (lambda d: d.update(confidence=1.5), "schema"),
        (lambda d: d.update(value=None), "schema"),
        (lambda d: d.update(subjectId=""), "schema"),
        (lambda d: d.update(subjectId="u\x00x"), "schema"),
        (lambda d: d.update(subjectId="x" * (MAX_ID_LENGTH + 1)), "schema"),
        (lambda d: d.update(value="v" * (MAX_VALUE_BYTES + 1)), "schema"),
        (lambda d: d.update(expiresAt="tomorrow"), "schema"),
        (lambda d: d.update(expiresAt="2026-12-31T00:00:00"), "schema"),
        (lambda d: d["evidence"].update(end=0), "schema"),
        (lambda d: d["evidence"].update(sha256="XYZ"), "schema"),
        (lambda d: d.update(proposalId="0" * 64), "schema"),
        (lambda d: d.update(scope={"kind": "global"}), "missing_field"),
    ],
)
def test_bad_proposals_are_refused_with_a_code(mutate: Any, code: str) -> None:
    data = _good()
    mutate(data)
    with pytest.raises(InputError) as err:
        parse_proposal(data)
    assert err.value.code == code


def test_duplicate_keys_in_json_text_are_refused() -> None:
    text = json.dumps(_good())[:-1] + ', "value": "yarn"}'
    with pytest.raises(InputError) as err:
        parse_proposal(text)
    assert err.value.code == "duplicate_key"


def test_lone_surrogate_in_value_is_refused() -> None:
    data = _good()
    data["value"] = "pn\ud800pm"
    with pytest.raises(InputError):
        parse_proposal(data)


def test_message_validation() -> None:
    good = message("hi").to_json()
    assert parse_message(good).text == "hi"
    bad = dict(good, role="robot")
    with pytest.raises(InputError):
        parse_message(bad)
    with pytest.raises(InputError) as err:
        parse_message(dict(good, extra=1))
    assert err.value.code == "unknown_field"


def test_schema_is_closed_and_camel_case() -> None:
    schema = proposal_json_schema()
    assert schema["additionalProperties"] is False
    props = schema["properties"]
    for name in ("tenantId", "subjectId", "scope", "kind", "normalizedKey", "value", "evidence",
                 "confidence", "expiresAt"):
        assert name in props
    assert set(schema["required"]) >= {"tenantId", "subjectId", "evidence", "confidence"}
    evidence = schema["$defs"]["Evidence"]
    assert evidence["additionalProperties"] is False


def test_payload_hash_follows_a_copy_with_another_value() -> None:
    """payload_hash is computed once per proposal; a copy with another value must not
    inherit the first one's hash."""
    msg = message("Remember that I use pnpm.")
    original = parse_proposal(proposal(msg, "I use pnpm"))
    first = original.payload_hash
    changed = original.model_copy(update={"value": "something else"})
    assert original.payload_hash == first
    assert changed.payload_hash != first
    assert changed.payload_hash == parse_proposal(
        {**original.to_json(), "value": "something else"}).payload_hash
