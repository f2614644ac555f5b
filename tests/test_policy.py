"""The rule matrix as a pure function: a table of cases, no repository needed."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import NOW, message, proposal
from memrepo.analysis import Analysis
from memrepo.errors import PolicyError
from memrepo.policy import (
    DOUBT_FLAGS,
    REJECT_FLAGS,
    GateInput,
    check_value,
    decide,
    default_policy,
    parse_policy,
    rollout_bucket,
)
from memrepo.proposal import DecisionKind, Fact, FactSource, MemoryProposal, parse_proposal

FLAGS = [f.name for f in dataclasses.fields(Analysis)
         if f.type in ("bool", bool)]


def analysis(**flags: Any) -> Analysis:
    values: dict[str, Any] = {}
    for f in dataclasses.fields(Analysis):
        if f.name in flags:
            values[f.name] = flags[f.name]
        elif f.name == "clause":
            values[f.name] = "clause"
        elif f.name == "lang":
            values[f.name] = "en"
        elif f.name == "cues":
            values[f.name] = ()
        else:
            values[f.name] = False
    return Analysis(**values)


CLEAN = {"explicit": True, "grounded": True}


def prop(key: str = "package_manager", kind: str = "preference", value: Any = "pnpm",
         confidence: float = 0.9, expires: str | None = None) -> MemoryProposal:
    msg = message("Remember that I use pnpm for packages.")
    data = proposal(msg, "Remember that I use pnpm", key=key, kind=kind, value=value,
                    confidence=confidence)
    data["expiresAt"] = expires
    return parse_proposal(data)


def fact(value: Any = "npm", *, frozen: bool = False, version: int = 1) -> Fact:
    return Fact.model_validate({
        "memoryId": "m" * 32, "version": version, "frozen": frozen, "tenantId": "t1",
        "subjectId": "u1", "scope": {"kind": "global", "key": "default"},
        "kind": "preference", "normalizedKey": "package_manager", "value": value,
        "source": FactSource.ADMIN_MANUAL.value, "createdAt": "2026-01-01T00:00:00Z",
        "updatedAt": "2026-01-01T00:00:00Z",
    })


def run(p: MemoryProposal | None = None, a: Analysis | None = None, **kw: Any):  # type: ignore[no-untyped-def]
    policy = kw.pop("policy", default_policy())
    gi = GateInput(proposal=p or prop(), now=NOW, analysis=a or analysis(**CLEAN), **kw)
    return decide(policy, gi)


@pytest.mark.parametrize(
    ("kwargs", "decision", "reason"),
    [
        # the one clean path
        ({}, DecisionKind.COMMIT, "explicit_instruction"),
        # REJECT, each for its own reason
        ({"p": prop(key="favorite_color")}, DecisionKind.REJECT, "unknown_key"),
        ({"p": prop(kind="profile", key="religion", value="x")}, DecisionKind.REJECT,
         "deny_tier"),
        ({"p": prop(key="units", value="furlongs")}, DecisionKind.REJECT, "value_not_in_enum"),
        ({"p": prop(key="timezone", value="Mars/Olympus")}, DecisionKind.REJECT, "bad_timezone"),
        ({"p": prop(kind="task_fact", key="deadline", value="2026-02-30")}, DecisionKind.REJECT,
         "bad_date"),
        ({"p": prop(key="quiet_hours", value={"start": "25:00", "end": "08:00"})},
         DecisionKind.REJECT, "bad_value_type"),
        ({"p": prop(value={"not": "text"})}, DecisionKind.REJECT, "bad_value_type"),
        ({"verification": ("message_not_found",)}, DecisionKind.REJECT, "message_not_found"),
        ({"verification": ("author_not_subject",)}, DecisionKind.REJECT, "author_not_subject"),
        ({"secret_reasons": ("secret_in_value_password",)}, DecisionKind.REJECT,
         "secret_in_value_password"),
        ({"current": fact(frozen=True)}, DecisionKind.REJECT, "frozen"),
        ({"current": fact("pnpm", frozen=True)}, DecisionKind.REJECT, "frozen"),
        ({"p": prop(expires="2026-10-14T09:00:00Z")}, DecisionKind.REJECT, "already_expired"),
        ({"a": None}, DecisionKind.REJECT, "unverified"),
        # CONFLICT
        ({"competing": ("yarn",), "p": prop(confidence=0.5)}, DecisionKind.CONFLICT,
         "competing_pending"),
        ({"competing": ("yarn",)}, DecisionKind.COMMIT, "explicit_instruction"),
        # CONFIRM_REPLACE
        ({"current": fact("npm")}, DecisionKind.CONFIRM_REPLACE, "replaces_current"),
        # NEEDS_CONFIRMATION
        ({"p": prop(kind="profile", key="home_city", value="杭州")},
         DecisionKind.NEEDS_CONFIRMATION, "confirm_tier"),
        ({"p": prop(confidence=0.79)}, DecisionKind.NEEDS_CONFIRMATION, "low_confidence"),
        ({"current": fact("pnpm", version=20)}, DecisionKind.NEEDS_CONFIRMATION, "version_cap"),
        # the same value again is a reaffirmation, not a replacement
        ({"current": fact("pnpm")}, DecisionKind.COMMIT, "reaffirms_current"),
        ({"competing": ("pnpm",)}, DecisionKind.COMMIT, "explicit_instruction"),
    ],
)
def test_matrix_rows(kwargs: dict[str, Any], decision: DecisionKind, reason: str) -> None:
    kwargs = dict(kwargs)
    a = kwargs.pop("a", analysis(**CLEAN)) if "a" in kwargs else analysis(**CLEAN)
    verdict = run(kwargs.pop("p", None), a, **kwargs) if a is not None else decide(
        default_policy(), GateInput(proposal=kwargs.pop("p", prop()), now=NOW, analysis=None))
    assert verdict.decision is decision
    assert reason in verdict.reasons


@pytest.mark.parametrize("flag", sorted(REJECT_FLAGS))
def test_reject_flags(flag: str) -> None:
    verdict = run(a=analysis(**CLEAN, **{flag: True}))
    assert verdict.decision is DecisionKind.REJECT
    assert REJECT_FLAGS[flag] in verdict.reasons


@pytest.mark.parametrize("flag", DOUBT_FLAGS)
def test_doubt_flags_park(flag: str) -> None:
    verdict = run(a=analysis(**CLEAN, **{flag: True}))
    assert verdict.decision is DecisionKind.NEEDS_CONFIRMATION
    assert flag in verdict.reasons


@pytest.mark.parametrize("flag", DOUBT_FLAGS)
def test_doubtful_statements_are_not_offered_as_replacements(flag: str) -> None:
    verdict = run(a=analysis(**CLEAN, **{flag: True}), current=fact("npm"))
    assert verdict.decision is DecisionKind.NEEDS_CONFIRMATION
    assert "replaces_current" in verdict.reasons


def test_inferred_confidence_is_discounted() -> None:
    verdict = run(p=prop(confidence=0.99), a=analysis(grounded=True))
    assert verdict.decision is DecisionKind.NEEDS_CONFIRMATION
    assert {"no_explicit_instruction", "low_confidence"} <= set(verdict.reasons)


def test_modes_and_kill_switch() -> None:
    base = default_policy().to_json()
    shadow = parse_policy(dict(base, mode="shadow"))
    v = run(policy=shadow)
    assert v.decision is DecisionKind.REJECT and v.reasons[:2] == ("shadow_mode", "would_commit")
    confirm_only = parse_policy(dict(base, mode="confirm_only"))
    v = run(policy=confirm_only)
    assert v.decision is DecisionKind.NEEDS_CONFIRMATION and "mode_confirm_only" in v.reasons
    off = parse_policy(dict(base, commitsEnabled=False))
    v = run(policy=off)
    assert v.decision is DecisionKind.NEEDS_CONFIRMATION and "commits_disabled" in v.reasons


def test_auto_commit_fraction_is_deterministic_by_proposal_id() -> None:
    base = default_policy().to_json()
    p = prop()
    bucket = rollout_bucket(p.id)
    below = parse_policy(dict(base, autoCommitFraction=min(1.0, bucket + 0.01)))
    above = parse_policy(dict(base, autoCommitFraction=max(0.0, bucket - 0.01)))
    assert run(p=p, policy=below).decision is DecisionKind.COMMIT
    held = run(p=p, policy=above)
    assert held.decision is DecisionKind.NEEDS_CONFIRMATION and "rollout_holdback" in held.reasons
    assert rollout_bucket(p.id) == bucket


def test_policy_validation() -> None:
    with pytest.raises(PolicyError):
        parse_policy({"keys": {"preference": {"x": {"tier": "sometimes"}}}})
    with pytest.raises(PolicyError):
        parse_policy({"keys": {}, "mode": "yolo"})
    with pytest.raises(PolicyError):
        parse_policy({"keys": {"preference": {"x": {"tier": "auto", "type": "enum"}}}})
    assert default_policy().version == parse_policy(default_policy().to_json()).version


def test_default_registry_covers_the_contract_table() -> None:
    policy = default_policy()
    table = {
        "preference": {"package_manager": "auto", "editor": "auto", "reply_language": "auto",
                       "reply_style": "auto", "drink": "auto", "diet": "auto", "units": "auto",
                       "indent_style": "auto", "timezone": "auto", "quiet_hours": "auto",
                       "notifications": "confirm"},
        "profile": {"display_name": "auto", "pronouns": "auto", "job_title": "auto",
                    "home_city": "confirm", "employer": "confirm", "birthday": "confirm",
                    "medication_schedule": "confirm", "health_condition": "deny",
                    "religion": "deny", "political_view": "deny", "sexual_orientation": "deny",
                    "ethnicity": "deny"},
        "decision": {"database": "auto", "deploy_target": "auto", "api_style": "auto",
                     "test_framework": "auto"},
        "task_fact": {"current_task": "auto", "deadline": "auto", "branch": "auto"},
    }
    for kind, keys in table.items():
        for key, tier in keys.items():
            spec = policy.spec(kind, key)
            assert spec is not None and spec.tier == tier, (kind, key)


@pytest.mark.parametrize(
    ("key", "value", "ok"),
    [("units", "metric", True), ("units", "Metric", False), ("indent_style", "tabs", True),
     ("timezone", "Asia/Shanghai", True), ("timezone", "UTC+8", False),
     ("quiet_hours", {"start": "22:00", "end": "08:00"}, True),
     ("quiet_hours", {"start": "22:00"}, False), ("editor", "", False), ("editor", "  ", False)],
)
def test_value_types(key: str, value: Any, ok: bool) -> None:
    spec = default_policy().spec("preference", key)
    assert spec is not None
    assert (check_value(spec, value) is None) is ok


@settings(max_examples=300, deadline=None)
@given(
    flags=st.fixed_dictionaries({name: st.booleans() for name in FLAGS}),
    confidence=st.floats(min_value=0, max_value=1),
    verification=st.sampled_from([(), ("tainted_origin_web",), ("tainted_origin_tool",),
                                  ("not_user_message_assistant",), ("evidence_hash_mismatch",)]),
)
def test_no_flag_combination_commits_tainted_or_mismatched_evidence(
    flags: dict[str, bool], confidence: float, verification: tuple[str, ...]
) -> None:
    verdict = run(p=prop(confidence=confidence), a=analysis(**flags), verification=verification)
    if verification:
        assert verdict.decision is DecisionKind.REJECT
    if verdict.decision is DecisionKind.COMMIT:
        assert flags["explicit"] and flags["grounded"] and confidence >= 0.8
        assert not any(flags[f] for f in (*DOUBT_FLAGS, *REJECT_FLAGS))
