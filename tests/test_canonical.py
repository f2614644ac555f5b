"""Hashes exactly per the contract, and refusal of what JCS cannot represent."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SHARED_EVAL, said
from memrepo import _git, canonical, layout
from memrepo.errors import InputError
from memrepo.store import Store

VECTORS = SHARED_EVAL / "hash-vectors.json"


def _vectors() -> list[dict]:
    if not VECTORS.exists():
        pytest.skip("shared/eval/hash-vectors.json not present")
    return json.loads(VECTORS.read_text("utf-8"))["vectors"]


@pytest.mark.parametrize("index", range(7))
def test_hash_vectors(index: int) -> None:
    vectors = _vectors()
    if index >= len(vectors):
        pytest.skip("fewer vectors")
    v = vectors[index]
    ident, payload = v["identity"], v["payload"]
    assert canonical.jcs(ident).decode() == v["identity_jcs"]
    assert canonical.jcs(payload).decode() == v["payload_jcs"]
    pid = canonical.proposal_id(
        tenant_id=ident["tenantId"], subject_id=ident["subjectId"], scope=ident["scope"],
        kind=ident["kind"], normalized_key=ident["normalizedKey"], message_id=ident["messageId"],
        start=ident["start"], end=ident["end"],
        stable_candidate_ordinal=ident["stableCandidateOrdinal"],
        extractor_version=ident["extractorVersion"],
    )
    assert pid == v["proposalId"]
    span = v["message"]["text"][ident["start"]:ident["end"]]
    assert canonical.evidence_hash(span) == v["evidenceHash"] == payload["evidenceHash"]
    assert canonical.payload_hash(
        value=payload["value"], confidence=payload["confidence"],
        expires_at=payload["expiresAt"], evidence_hash=payload["evidenceHash"],
    ) == v["payloadHash"]


def test_all_vectors_covered() -> None:
    assert len(_vectors()) <= 7, "add parametrised indices for the new vectors"


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (math.nan, "non_finite_number"),
        (math.inf, "non_finite_number"),
        ([1, {"a": -math.inf}], "non_finite_number"),
        (2**53, "integer_out_of_range"),
        (-(2**53), "integer_out_of_range"),
        ({"k": [2**60]}, "integer_out_of_range"),
        ("a\ud800b", "lone_surrogate"),
        ({"\udfff": 1}, "lone_surrogate"),
        ({"x": {"y": "\udc00"}}, "lone_surrogate"),
        ({1: "a"}, "bad_key"),
        (object(), "not_json"),
    ],
)
def test_unrepresentable_values_are_refused(value: object, code: str) -> None:
    with pytest.raises(InputError) as err:
        canonical.jcs(value)
    assert err.value.code == code


@pytest.mark.parametrize("value", [2**53 - 1, -(2**53 - 1), 0.1, "😀", {"b": 1, "a": [None]}])
def test_representable_edges_are_accepted(value: object) -> None:
    assert json.loads(canonical.jcs(value)) == value


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ('{"a": 1, "a": 2}', "duplicate_key"),
        ('{"a": {"b": 1, "b": 1}}', "duplicate_key"),
        ('{"a": NaN}', "non_finite_number"),
        ('{"a": Infinity}', "non_finite_number"),
        ('{"a": "\\ud800"}', "lone_surrogate"),
        ('{"a": 1', "malformed_json"),
        ("", "malformed_json"),
        ('{"a": 9007199254740993}', "integer_out_of_range"),
    ],
)
def test_strict_loads(text: str, code: str) -> None:
    with pytest.raises(InputError) as err:
        canonical.loads_strict(text)
    assert err.value.code == code


def test_pretty_form_is_a_function_of_the_canonical_form() -> None:
    a = canonical.dumps_pretty({"b": [1, 2], "a": "中文", "c": {"z": 1, "y": 0.5}})
    b = canonical.dumps_pretty({"c": {"y": 0.5, "z": 1}, "a": "中文", "b": [1, 2]})
    assert a == b
    assert a.decode().splitlines()[1] == '  "a": "中文",'


# The fast path (json module) against the reference (rfc8785 package) on any JSON value:
# keys and strings from ASCII, CJK, astral and control characters (the UTF-16 ordering and
# escaping edges), numbers across every notation JCS and repr() disagree on.
_chars = st.characters(codec="utf-8") | st.sampled_from("\x00\x1f\x7f\u2028\ue000\uffff😀𝄞a")
_keys = st.text(st.sampled_from("aZ\ue000\uffff😀𝄞é\x00"), max_size=3) | st.text(_chars, max_size=4)
_numbers = (st.integers(-(2**53 - 1), 2**53 - 1)
            | st.floats(allow_nan=False, allow_infinity=False)
            | st.sampled_from([0.0, -0.0, 1.0, 1e-4, 9.99e-5, 1e16, 1e21, 1e-7, 0.5, 123.25]))
_json = st.recursive(
    st.none() | st.booleans() | _numbers | st.text(_chars, max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=1500, deadline=None)
@given(value=_json)
def test_fast_jcs_is_the_reference_jcs(value: object) -> None:
    expected = canonical._reference_jcs(value)
    assert canonical.jcs(value) == expected
    pretty = (json.dumps(json.loads(expected), ensure_ascii=False, indent=2) + "\n").encode()
    assert canonical.dumps_pretty(value) == pretty


def test_fast_path_refuses_what_the_reference_refuses_with_the_same_reason() -> None:
    for value in ({"ok": 1.5, "bad": [{"x": "\ud800"}]}, {"a": "é", "b": 2**60}):
        with pytest.raises(InputError) as fast:
            canonical.dumps_pretty(value)
        with pytest.raises(InputError) as ref:
            canonical.check_jcs_value(value)
        assert (fast.value.code, str(fast.value)) == (ref.value.code, str(ref.value))


def test_what_the_store_writes_takes_the_fast_path(store: Store) -> None:
    """The fast path only pays if the files every commit writes actually take it: read
    the fact, its record and its source message back from a real commit. (The policy,
    written once per change, does not: its aliases have non-ASCII keys.)"""
    d = said(store, "m1", "Remember that I use pnpm for packages.",
             "Remember that I use pnpm", "pnpm")
    assert d.proposal_id is not None and d.memory_id is not None
    tenant = store.tenant("t1")
    state = tenant.state()
    paths = [tenant.fact_path_of(d.memory_id, state), layout.proposal_path(d.proposal_id),
             layout.message_path("m1")]
    for path in paths:
        assert path is not None
        data = _git.lookup_blob(tenant.repo, state.main_tree, path)
        assert data is not None, path
        assert canonical._checked_plain(json.loads(data)), path
    assert not canonical._checked_plain({"confidence": 1.0})  # JCS writes 1, json 1.0
    assert not canonical._checked_plain({"中文": 1})  # not ASCII: UTF-16 order decides
