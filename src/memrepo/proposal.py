"""The data that crosses memrepo's boundary: messages, proposals, facts, decisions.

Field names on the wire are camelCase exactly as in the evaluation contract; Python
attributes are snake_case. Unknown fields are errors for proposals and messages, so a
model cannot smuggle ``"explicit": true`` past validation; the gate records such a
proposal as an audited rejection instead.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.alias_generators import to_camel

from . import canonical
from .errors import InputError

#: Longest id accepted anywhere (tenant, subject, message, scope key, normalised key).
MAX_ID_LENGTH = 256
#: Largest value accepted, measured as canonical JSON bytes. Memory is for short facts;
#: anything larger is almost surely a pasted document and is refused before hashing.
MAX_VALUE_BYTES = 4096
#: Largest message text accepted at ingest.
MAX_MESSAGE_CHARS = 100_000


def _check_id(value: str) -> str:
    if not value:
        raise ValueError("must not be empty")
    if len(value) > MAX_ID_LENGTH:
        raise ValueError(f"longer than {MAX_ID_LENGTH} characters")
    for ch in value:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise ValueError(f"contains a control or unassigned character U+{ord(ch):04X}")
    if value != value.strip():
        raise ValueError("has leading or trailing whitespace")
    return value


Id = Annotated[str, AfterValidator(_check_id)]


class _Model(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        frozen=True,
        str_strict=True,
    )

    def to_json(self) -> dict[str, Any]:
        """The wire form: camelCase, JSON types only."""
        return self.model_dump(mode="json", by_alias=True)


def _parse_time(value: str) -> datetime:
    if not isinstance(value, str):
        raise ValueError("must be an RFC 3339 string")
    text = value.replace("z", "Z")
    if not ("T" in text and (text.endswith("Z") or text[-6] in "+-")):
        raise ValueError("must be RFC 3339 with a time zone, e.g. 2026-12-31T00:00:00Z")
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise ValueError(f"not an RFC 3339 time: {exc}") from None
    return parsed.astimezone(UTC)


def format_time(moment: datetime) -> str:
    """RFC 3339 UTC with a Z, seconds precision unless sub-second detail exists."""
    moment = moment.astimezone(UTC)
    if moment.microsecond:
        return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(value: str) -> datetime:
    try:
        return _parse_time(value)
    except ValueError as exc:
        raise InputError(f"{value!r}: {exc}", code="bad_time") from None


def _check_time_text(value: str) -> str:
    _parse_time(value)
    return value


Timestamp = Annotated[str, AfterValidator(_check_time_text)]


class Role(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"
    SYSTEM = "system"


class Origin(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"
    WEB = "web"
    ADMIN = "admin"


class Message(_Model):
    """A source message, stored immutably so evidence can always be re-read."""

    message_id: Id
    tenant_id: Id
    conversation_id: Id
    author_id: Id | None = None
    role: Role
    origin: Origin
    text: str = Field(max_length=MAX_MESSAGE_CHARS)
    created_at: Timestamp

    @field_validator("text")
    @classmethod
    def _text_encodable(cls, value: str) -> str:
        canonical.check_jcs_value(value, "text")
        return value


class Scope(_Model):
    kind: Id
    key: Id

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "key": self.key}


class Evidence(_Model):
    message_id: Id
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")

    @model_validator(mode="after")
    def _ordered(self) -> Evidence:
        if self.end <= self.start:
            raise ValueError("evidence end must be greater than start")
        return self


def _check_value(value: Any) -> Any:
    canonical.check_jcs_value(value, "value")
    size = len(canonical.jcs(value))
    if size > MAX_VALUE_BYTES:
        raise ValueError(f"value is {size} bytes of canonical JSON; the limit is {MAX_VALUE_BYTES}")
    if value is None:
        raise ValueError("value must not be null")
    return value


class MemoryProposal(_Model):
    """What an extractor claims. Nothing in it is trusted until the gate re-reads the source."""

    tenant_id: Id
    subject_id: Id
    scope: Scope
    kind: Id
    normalized_key: Id
    value: Annotated[Any, AfterValidator(_check_value)]
    evidence: Evidence
    confidence: float = Field(ge=0.0, le=1.0)
    expires_at: Timestamp | None = None
    stable_candidate_ordinal: int = Field(default=0, ge=0, le=2**31)
    extractor_version: Id = "eval-1"
    proposal_id: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")

    @field_validator("confidence", mode="before")
    @classmethod
    def _finite_number(cls, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError("confidence must be a number")
        return value

    @model_validator(mode="after")
    def _derived_id(self) -> MemoryProposal:
        computed = self.computed_proposal_id()
        if self.proposal_id is None:
            object.__setattr__(self, "proposal_id", computed)
        elif self.proposal_id != computed:
            raise ValueError(
                f"proposalId {self.proposal_id} does not match its identity fields ({computed})"
            )
        return self

    def computed_proposal_id(self) -> str:
        return canonical.proposal_id(
            tenant_id=self.tenant_id,
            subject_id=self.subject_id,
            scope=self.scope.as_dict(),
            kind=self.kind,
            normalized_key=self.normalized_key,
            message_id=self.evidence.message_id,
            start=self.evidence.start,
            end=self.evidence.end,
            stable_candidate_ordinal=self.stable_candidate_ordinal,
            extractor_version=self.extractor_version,
        )

    @property
    def id(self) -> str:
        assert self.proposal_id is not None
        return self.proposal_id

    def model_copy(self, *, update: Mapping[str, Any] | None = None,
                   deep: bool = False) -> MemoryProposal:
        copied = super().model_copy(update=update, deep=deep)
        copied.__dict__.pop("payload_hash", None)  # the cache below, maybe stale now
        return copied

    @cached_property
    def payload_hash(self) -> str:
        """Computed once: the gate asks for it several times per decision (frozen model)."""
        return canonical.payload_hash(
            value=self.value,
            confidence=self.confidence,
            expires_at=self.expires_at,
            evidence_hash=self.evidence.sha256,
        )


class DecisionKind(StrEnum):
    COMMIT = "COMMIT"
    NEEDS_CONFIRMATION = "NEEDS_CONFIRMATION"
    CONFIRM_REPLACE = "CONFIRM_REPLACE"
    CONFLICT = "CONFLICT"
    REJECT = "REJECT"
    DUPLICATE = "DUPLICATE"
    PROTOCOL_CONFLICT = "PROTOCOL_CONFLICT"


PARKED = frozenset({DecisionKind.NEEDS_CONFIRMATION, DecisionKind.CONFIRM_REPLACE})


class Decision(_Model):
    """The gate's answer to one proposal, always with reason codes."""

    model_config = ConfigDict(extra="forbid", frozen=True, alias_generator=to_camel,
                              populate_by_name=True)

    decision: DecisionKind
    reasons: tuple[str, ...]
    proposal_id: str | None = None
    payload_hash: str | None = None
    memory_id: str | None = None
    version: int | None = None
    commit: str | None = None
    policy_version: str | None = None


class FactSource(StrEnum):
    USER_EXPLICIT = "user_explicit"
    SYSTEM_INFERRED = "system_inferred"
    ADMIN_MANUAL = "admin_manual"


class FactStatus(StrEnum):
    ACTIVE = "ACTIVE"
    REVOKED = "REVOKED"


class Fact(_Model):
    """One version of one fact, as written to ``facts/…/<key>.json`` on ``main``."""

    model_config = ConfigDict(extra="forbid", frozen=True, alias_generator=to_camel,
                              populate_by_name=True)

    memory_id: str
    version: int = Field(ge=1)
    status: FactStatus = FactStatus.ACTIVE
    frozen: bool = False
    tenant_id: str
    subject_id: str
    scope: Scope
    kind: str
    normalized_key: str
    value: Any
    source: FactSource
    evidence: Evidence | None = None
    derived_from: tuple[str, ...] = ()
    supersedes: int | None = None
    proposal_id: str | None = None
    payload_hash: str | None = None
    confidence: float | None = None
    created_at: str
    updated_at: str
    expires_at: str | None = None
    operator: str | None = None
    approved_by: str | None = None
    change_reason: str | None = None

    def is_live(self, now: datetime) -> bool:
        if self.status is not FactStatus.ACTIVE:
            return False
        return self.expires_at is None or parse_time(self.expires_at) > now


def _pydantic_error(exc: ValidationError, what: str) -> InputError:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or what
    kind = first.get("type", "")
    code = "unknown_field" if kind == "extra_forbidden" else "schema"
    if kind == "missing":
        code = "missing_field"
    msg = first.get("msg", "invalid")
    more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
    return InputError(f"{what}: {where}: {msg}{more}", code=code)


def parse_message(data: Any) -> Message:
    if isinstance(data, str | bytes):
        data = canonical.loads_strict(data)
    try:
        return Message.model_validate(data)
    except ValidationError as exc:
        raise _pydantic_error(exc, "message") from None


def parse_proposal(data: Any) -> MemoryProposal:
    if isinstance(data, str | bytes):
        data = canonical.loads_strict(data)
    try:
        return MemoryProposal.model_validate(data)
    except ValidationError as exc:
        raise _pydantic_error(exc, "proposal") from None


def proposal_json_schema() -> dict[str, Any]:
    """JSON Schema for MemoryProposal, suitable for constraining an LLM's output."""
    schema = MemoryProposal.model_json_schema(by_alias=True, mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema.setdefault("title", "MemoryProposal")
    return schema


def schema_text() -> str:
    return json.dumps(proposal_json_schema(), indent=2, ensure_ascii=False)


TierName = Literal["auto", "confirm", "deny"]
