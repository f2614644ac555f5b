"""The key registry, rollout controls and the rule matrix (pure: values in, decision out).

A tenant's policy lives in its repository as ``policy.json`` on ``main``, so changing
what may be remembered is itself a reviewed commit. Its version is the hash of its
canonical form, recorded in every decision's ``Policy-Version`` trailer.

The matrix, in precedence order (first match wins)::

    REJECT             schema, unknown key, wrong value type, deny tier, evidence
                       missing/mismatched, cross-tenant, not written by the subject,
                       tainted origin, secret, frozen target, already expired, value
                       negated, about someone else, retracted, "update:" injection
    CONFLICT           would be parked while another pending proposal with a different
                       value waits for the same fact
    CONFIRM_REPLACE    would commit or ask, but a different current value exists
    NEEDS_CONFIRMATION inferred, confirm tier, low confidence, hedged, temporary,
                       sarcastic, hypothetical, question, agreement to a guess, special-
                       category data under an ordinary key, version cap,
                       rollout hold-back, confirm_only mode, commits switched off
    COMMIT             explicit, auto tier, grounded, verified evidence, confidence ≥ threshold

Nothing a model adds to a proposal can raise a decision: the inputs here are the
verified evidence, the analysis of the source text and the registry, never the model's
own claims. Confidence can only lower a decision.
"""

from __future__ import annotations

import json
import re
import zoneinfo
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache, cached_property
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic.alias_generators import to_camel

from . import canonical
from .analysis import Analysis
from .errors import PolicyError
from .proposal import DecisionKind, Fact, MemoryProposal, parse_time

Tier = Literal["auto", "confirm", "deny"]
ValueType = Literal["text", "enum", "timezone", "hhmm_range", "date"]
Mode = Literal["auto", "confirm_only", "shadow"]

MAX_TEXT_VALUE = 500
_HHMM = re.compile(r"([01]\d|2[0-3]):[0-5]\d")


class _PolicyModel(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )


class KeySpec(_PolicyModel):
    tier: Tier
    type: ValueType = "text"
    values: tuple[str, ...] = ()
    aliases: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    ttl_days: int | None = Field(default=None, ge=1, le=36500)

    @model_validator(mode="after")
    def _enum_has_values(self) -> KeySpec:
        if self.type == "enum" and not self.values:
            raise ValueError("an enum key needs values")
        return self


class Policy(_PolicyModel):
    schema_: int = Field(default=1, alias="schema")
    name: str = "default"
    mode: Mode = "auto"
    commits_enabled: bool = True
    auto_commit_fraction: float = Field(default=1.0, ge=0.0, le=1.0)
    commit_threshold: float = Field(default=0.8, ge=0.0, le=1.0)
    inferred_discount: float = Field(default=0.8, ge=0.0, le=1.0)
    max_versions: int = Field(default=20, ge=1)
    keys: dict[str, dict[str, KeySpec]]

    @cached_property
    def version(self) -> str:
        # Cached: the model is frozen, and hashing the whole registry costs ~3 ms.
        return canonical.sha256_hex(canonical.jcs(self.to_json()))[:16]

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)

    def spec(self, kind: str, key: str) -> KeySpec | None:
        return self.keys.get(kind, {}).get(key)

    def aliases_for(self, kind: str, key: str) -> dict[str, tuple[str, ...]]:
        spec = self.spec(kind, key)
        return dict(spec.aliases) if spec else {}


def parse_policy(data: Any) -> Policy:
    if isinstance(data, str | bytes):
        data = canonical.loads_strict(data)
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise PolicyError(f"policy: {where}: {first.get('msg')}") from None


@cache
def default_policy() -> Policy:
    text = resources.files("memrepo").joinpath("data/default-policy.json").read_text("utf-8")
    return parse_policy(json.loads(text))


def check_value(spec: KeySpec, value: Any) -> str | None:
    """None if ``value`` fits the key's type, else a reason code."""
    if spec.type == "hhmm_range":
        if not (isinstance(value, dict) and set(value) == {"start", "end"}):
            return "bad_value_type"
        ok = all(isinstance(v, str) and _HHMM.fullmatch(v) for v in value.values())
        return None if ok else "bad_value_type"
    if not isinstance(value, str) or not value.strip():
        return "bad_value_type"
    if spec.type == "text":
        return None if len(value) <= MAX_TEXT_VALUE else "value_too_long"
    if spec.type == "enum":
        return None if value in spec.values else "value_not_in_enum"
    if spec.type == "timezone":
        return None if value in _timezones() else "bad_timezone"
    if spec.type == "date":
        try:
            date.fromisoformat(value)
        except ValueError:
            return "bad_date"
        return None if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) else "bad_date"
    return "bad_value_type"  # pragma: no cover


@cache
def _timezones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def rollout_bucket(proposal_id: str) -> float:
    """A stable number in [0, 1) drawn from the proposalId, for auto-commit fractions."""
    return int(proposal_id[:8], 16) / 2**32


#: Flags of the analysis that make a proposal doubtful rather than false.
DOUBT_FLAGS = ("hedged", "temporary", "sarcastic", "hypothetical", "question",
               "agreement_to_guess")
#: Flags of the analysis that make a proposal false or unsafe to keep at all.
REJECT_FLAGS = {
    "negated": "value_negated",
    "other_person": "about_someone_else",
    "retracted": "retracted",
    "pasted_untrusted": "tainted_paste",
    "update_injection": "update_injection",
}


@dataclass(frozen=True)
class GateInput:
    """Everything the matrix may look at, gathered and verified by the gate."""

    proposal: MemoryProposal
    now: datetime
    verification: tuple[str, ...] = ()        # reject reasons from evidence verification
    analysis: Analysis | None = None
    secret_reasons: tuple[str, ...] = ()
    current: Fact | None = None               # current version, if any (live or not)
    competing: tuple[Any, ...] = ()           # values of other pending proposals, same fact
    sensitive_reasons: tuple[str, ...] = ()     # special-category data under an ordinary key


@dataclass(frozen=True)
class Verdict:
    decision: DecisionKind
    reasons: tuple[str, ...]


def decide(policy: Policy, gi: GateInput) -> Verdict:
    """The rule matrix. Pure and total: every input gets a decision with reasons."""
    p = gi.proposal
    reject: list[str] = []
    spec = policy.spec(p.kind, p.normalized_key)
    if spec is None:
        reject.append("unknown_key")
    else:
        if spec.tier == "deny":
            reject.append("deny_tier")
        bad = check_value(spec, p.value)
        if bad:
            reject.append(bad)
    reject.extend(gi.verification)
    reject.extend(gi.secret_reasons)
    current = gi.current
    if current is not None and current.frozen:
        reject.append("frozen")
    if p.expires_at is not None and parse_time(p.expires_at) <= gi.now:
        reject.append("already_expired")
    a = gi.analysis
    if a is not None:
        reject.extend(code for flag, code in REJECT_FLAGS.items() if getattr(a, flag))
    if reject or spec is None or a is None:
        return Verdict(DecisionKind.REJECT, tuple(dict.fromkeys(reject or ["unverified"])))

    park: list[str] = []
    if not a.explicit:
        park.append("no_explicit_instruction")
    if not a.grounded:
        park.append("value_not_grounded")
    if spec.tier == "confirm":
        park.append("confirm_tier")
    effective = p.confidence if a.explicit else p.confidence * policy.inferred_discount
    if effective < policy.commit_threshold:
        park.append("low_confidence")
    doubts = [flag for flag in DOUBT_FLAGS if getattr(a, flag)]
    park.extend(doubts)
    park.extend(gi.sensitive_reasons)

    live = current if current is not None and current.is_live(gi.now) else None
    replaces = live is not None and live.value != p.value
    if live is not None and live.version >= policy.max_versions:
        park.append("version_cap")

    if park and any(value != p.value for value in gi.competing):
        # Two parked proposals with different values for one fact: a person must pick.
        # A clean explicit statement is not blocked by older parked guesses; confirming
        # one of those later meets the changed fact and becomes a CONFLICT itself.
        return Verdict(DecisionKind.CONFLICT, ("competing_pending", *park))

    if not park:
        if policy.mode == "confirm_only":
            park.append("mode_confirm_only")
        elif rollout_bucket(p.id) >= policy.auto_commit_fraction:
            park.append("rollout_holdback")
        if not policy.commits_enabled:
            park.append("commits_disabled")

    if replaces and not doubts:
        verdict = Verdict(DecisionKind.CONFIRM_REPLACE, ("replaces_current", *park))
    elif park:
        extra = ("replaces_current",) if replaces else ()
        verdict = Verdict(DecisionKind.NEEDS_CONFIRMATION, (*park, *extra))
    else:
        same = ("reaffirms_current",) if live is not None else ()
        verdict = Verdict(
            DecisionKind.COMMIT,
            ("explicit_instruction", "auto_tier", "grounded", "evidence_verified", *same),
        )
    if policy.mode == "shadow":
        return Verdict(DecisionKind.REJECT, ("shadow_mode", f"would_{verdict.decision.lower()}",
                                             *verdict.reasons))
    return verdict


def effective_expiry(policy: Policy, kind: str, key: str, expires_at: str | None,
                     now: datetime) -> str | None:
    """The proposal's expiry, or the key's default TTL from now when it gave none."""
    if expires_at is not None:
        return expires_at
    spec = policy.spec(kind, key)
    if spec is None or spec.ttl_days is None:
        return None
    from datetime import timedelta

    from .proposal import format_time

    return format_time(now + timedelta(days=spec.ttl_days))


def describe_keys(policy: Policy) -> Sequence[Mapping[str, Any]]:
    rows = []
    for kind, keys in sorted(policy.keys.items()):
        for key, spec in sorted(keys.items()):
            rows.append({"kind": kind, "key": key, "tier": spec.tier, "type": spec.type,
                         "values": list(spec.values), "ttlDays": spec.ttl_days})
    return rows
