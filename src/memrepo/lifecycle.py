"""Changes people make to memory after the gate: confirm, decline, revoke, admin edits.

Every change is a new commit through the same compare-and-swap path as the gate; none
rewrites ``main`` or deletes evidence. Approvals bind proposalId *and* payloadHash, and
confirming re-checks the current state, so an approval can never be replayed onto a
fact that changed since the person looked at it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from . import _git, canonical, layout
from .canonical import check_jcs_value
from .errors import InputError, NotFoundError
from .gate import MAX_ATTEMPTS, assess, backoff, commit_fact, lost_race
from .policy import Policy, check_value, parse_policy
from .proposal import (
    Decision,
    DecisionKind,
    Fact,
    FactSource,
    FactStatus,
    MemoryProposal,
    Scope,
    format_time,
    parse_time,
)
from .store import State, Store, TenantRepo, now_utc


def _pending_record(tenant: TenantRepo, proposal_id: str, state: State) -> dict[str, Any]:
    try:
        path = layout.proposal_path(proposal_id)
    except ValueError:
        raise InputError(f"not a proposal id: {proposal_id!r}", code="bad_proposal_id") from None
    data = _git.lookup_blob(tenant.repo, state.audit_tree, path)
    if data is None:
        committed = _git.lookup(state.main_tree, path)
        if committed is not None:
            raise InputError(f"proposal {proposal_id} is already committed",
                             code="already_committed")
        raise NotFoundError(f"no proposal {proposal_id} in tenant {tenant.tenant_id!r}")
    return json.loads(data)


def confirm(store: Store, tenant_id: str, proposal_id: str, payload_hash: str, *,
            approver: str, now: datetime | None = None) -> Decision:
    """Approve a parked proposal, bound to its payloadHash; commit it unless something changed.

    Returns REJECT (nothing changes, the proposal stays pending) when the payloadHash
    does not match; CONFLICT when the fact changed since the proposal was parked;
    REJECT when the gate would now refuse it outright (frozen, expired, secret, …).
    """
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    for attempt in range(MAX_ATTEMPTS):
        state = tenant.state()
        record = _pending_record(tenant, proposal_id, state)
        base = dict(proposal_id=proposal_id, payload_hash=payload_hash)
        if record["status"] != "pending":
            return Decision(decision=DecisionKind.REJECT,
                            reasons=("not_pending", f"status_{record['status']}"), **base)
        if record["payloadHash"] != payload_hash:
            return Decision(decision=DecisionKind.REJECT, reasons=("approval_payload_mismatch",),
                            **base)
        if record.get("candidate") == RENEWAL:
            done = _confirm_renewal(tenant, state, record, approver=approver, now=now)
            if done is not None:
                return done
            backoff(attempt)
            continue
        proposal = MemoryProposal.model_validate(record["proposal"])
        a = assess(tenant, state, proposal, now)
        policy = a.policy
        if a.verdict.decision is DecisionKind.REJECT and "shadow_mode" not in a.verdict.reasons:
            status, decision, reasons = "rejected", DecisionKind.REJECT, a.verdict.reasons
        elif not policy.commits_enabled or policy.mode == "shadow":
            return Decision(decision=DecisionKind.REJECT,
                            reasons=("commits_disabled" if not policy.commits_enabled
                                     else "shadow_mode",), **base)
        elif _changed_since(record.get("base"), a.current):
            status, decision, reasons = "conflict", DecisionKind.CONFLICT, ("fact_changed",)
        else:
            approval = {"approvedBy": approver, "approvedAt": format_time(now),
                        "payloadHash": payload_hash, "parkedAs": record["decision"]}
            updated = dict(record, status="confirmed", approval=approval)
            done = commit_fact(
                tenant, state, a, now, reasons=("confirmed_by_subject",), operator=approver,
                approval=approval,
                audit={layout.proposal_path(proposal_id): updated,
                       layout.pending_path(record["memoryId"], proposal_id): None},
            )
            if done is not None:
                return done
            backoff(attempt)
            continue
        if _close(tenant, state, record, status=status, decision=decision, reasons=reasons,
                  operator=approver, now=now):
            return Decision(decision=decision, reasons=tuple(reasons), **base)
        backoff(attempt)
    return lost_race(proposal_id, payload_hash)


def _changed_since(base: Mapping[str, Any] | None, current: Fact | None) -> bool:
    """Whether the fact differs from what the person saw when asked.

    Versions alone are not enough: a rollback writes an older version's file back
    byte for byte, so version numbers can repeat. Every field the record kept about
    the base (version, value, status, payloadHash, expiry) must still match.
    """
    if base is None:
        return current is not None and current.status is FactStatus.ACTIVE
    if current is None:
        return True
    seen = {"version": current.version, "value": current.value,
            "status": current.status.value, "payloadHash": current.payload_hash,
            "expiresAt": current.expires_at}
    return any(key in base and base[key] != value for key, value in seen.items())


def _close(tenant: TenantRepo, state: State, record: Mapping[str, Any], *, status: str,
           decision: DecisionKind, reasons: Sequence[str], operator: str, now: datetime) -> bool:
    updated = dict(record, status=status, closedBy=operator, closedAt=format_time(now),
                   closeReasons=list(reasons))
    changes = {layout.proposal_path(record["proposalId"]): tenant.blob(updated),
               layout.pending_path(record["memoryId"], record["proposalId"]): None}
    message = (f"{status}: proposal {record['proposalId'][:12]} "
               f"({record['proposal']['kind']}/{record['proposal']['normalizedKey']})\n\n"
               f"Proposal-Id: {record['proposalId']}\nPayload-Hash: {record['payloadHash']}\n"
               f"Memory-Id: {record['memoryId']}\n"
               f"Op: {'decline' if status == 'declined' else 'close'}\nStatus: {status}\n"
               f"Decision: {decision.value}\nOperator: {operator}\n"
               f"Change-Reason: {', '.join(reasons)}\nTime-Ms: {time_ms(now)}\n")
    return tenant.commit(state, audit=changes, message=message, when=now) is not None


def decline(store: Store, tenant_id: str, proposal_id: str, *, operator: str,
            now: datetime | None = None) -> Decision:
    """The subject says no: the proposal leaves the queue, its record stays."""
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    for attempt in range(MAX_ATTEMPTS):
        state = tenant.state()
        record = _pending_record(tenant, proposal_id, state)
        if record["status"] != "pending":
            return Decision(decision=DecisionKind.REJECT,
                            reasons=("not_pending", f"status_{record['status']}"),
                            proposal_id=proposal_id)
        if _close(tenant, state, record, status="declined", decision=DecisionKind.REJECT,
                  reasons=("declined_by_subject",), operator=operator, now=now):
            return Decision(decision=DecisionKind.REJECT, reasons=("declined_by_subject",),
                            proposal_id=proposal_id, payload_hash=record["payloadHash"])
        backoff(attempt)
    raise InputError("could not decline: lost the race too often", code="cas_exhausted")


@dataclass(frozen=True)
class FactRef:
    """Names one fact slot, as a person would: subject, scope, kind, key."""

    subject_id: str
    scope: Mapping[str, str]
    kind: str
    normalized_key: str

    @property
    def path(self) -> str:
        return layout.fact_path(self.subject_id, self.scope, self.kind, self.normalized_key)

    @property
    def spec(self) -> str:
        """The command-line form, ``SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY``."""
        return (f"{self.subject_id}/{self.scope['kind']}:{self.scope['key']}/{self.kind}/"
                f"{self.normalized_key}")

    @classmethod
    def of(cls, fact: Fact) -> FactRef:
        return cls(fact.subject_id, fact.scope.as_dict(), fact.kind, fact.normalized_key)


@dataclass(frozen=True)
class RevokeResult:
    revoked: tuple[str, ...]          # memoryIds marked REVOKED
    declined: tuple[str, ...]         # pending proposalIds closed
    commit: str | None


def revoke(store: Store, tenant_id: str, *, message_id: str | None = None,
           fact: FactRef | None = None, operator: str, reason: str = "revoked by subject",
           now: datetime | None = None, version: int | None = None,
           trailers: Sequence[tuple[str, str]] = ()) -> RevokeResult:
    """Mark facts REVOKED in one new commit: every fact derived from a message, or one fact.

    Pending proposals from that message leave the queue too. History and evidence stay.
    ``version`` revokes a fact only while that is still its current version (a caller that
    judged one version must not revoke the next); ``trailers`` are added to the commit.
    """
    if (message_id is None) == (fact is None):
        raise InputError("revoke needs exactly one of a message id or a fact", code="usage")
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    for attempt in range(MAX_ATTEMPTS):
        state = tenant.state()
        paths: list[str] = []
        if message_id is not None:
            paths = tenant.derived_paths(message_id, state)
        else:
            assert fact is not None
            paths = [fact.path]
        main: dict[str, _git.Oid | None] = {}
        revoked: list[str] = []
        stamp = format_time(now)
        for path in sorted(set(paths)):
            current = tenant.fact_at(path, state)
            if current is None or current.status is FactStatus.REVOKED:
                continue
            if message_id is not None and message_id not in current.derived_from:
                continue  # a later version no longer rests on that message
            if version is not None and current.version != version:
                continue
            new = current.model_copy(update={
                "version": current.version + 1, "status": FactStatus.REVOKED,
                "supersedes": current.version, "updated_at": stamp, "operator": operator,
                "change_reason": reason, "approved_by": None,
            })
            main[path] = tenant.blob(new.to_json())
            revoked.append(current.memory_id)
        audit: dict[str, _git.Oid | None] = {}
        declined: list[str] = []
        if message_id is not None:
            for record in tenant.all_pending(state):
                if record["proposal"]["evidence"]["messageId"] != message_id:
                    continue
                updated = dict(record, status="revoked", closedBy=operator, closedAt=stamp)
                audit[layout.proposal_path(record["proposalId"])] = tenant.blob(updated)
                audit[layout.pending_path(record["memoryId"], record["proposalId"])] = None
                declined.append(record["proposalId"])
        if not main and not audit:
            return RevokeResult((), (), None)
        target = f"message {message_id}" if message_id else f"fact {paths[0]}"
        lines = [f"revoke: {len(revoked)} fact(s) from {target}", "", reason, ""]
        lines += [f"Memory-Id: {mid}" for mid in revoked]
        lines += ["Op: revoke", "Decision: REVOKE", f"Operator: {operator}",
                  f"Change-Reason: {reason}", f"Tenant-Id: {tenant_id}",
                  f"Time-Ms: {time_ms(now)}"]
        if message_id:
            lines.append(f"Source-Message: {message_id}")
        lines += [f"{key}: {value}" for key, value in trailers]
        done = tenant.commit(state, main=main or None, audit=audit or None,
                             message="\n".join(lines) + "\n", when=now)
        if done is not None:
            return RevokeResult(tuple(revoked), tuple(declined),
                                str(done[0]) if main else None)
        backoff(attempt)
    raise InputError("could not revoke: lost the race too often", code="cas_exhausted")


def admin_set(store: Store, tenant_id: str, fact: FactRef, value: Any, *, operator: str,
              reason: str, frozen: bool | None = None, now: datetime | None = None,
              create_tenant: bool = False, expires_at: str | None = None) -> Fact:
    """An administrator sets a fact's value (and optionally freezes it), source admin_manual.

    This is the path for seeding facts and for edits with a change reason; it bypasses
    the extractor but not the audit trail: one commit, operator and reason in trailers.
    A frozen fact stays frozen (unless ``frozen=False``): freezing stops automatic
    changes, not the administrator.
    """
    return _admin_set(store, tenant_id, fact, value, operator=operator, reason=reason,
                      frozen=frozen, now=now, create_tenant=create_tenant,
                      expires_at=expires_at)[0]


def _admin_set(store: Store, tenant_id: str, fact: FactRef, value: Any, *, operator: str,
               reason: str, frozen: bool | None = None, now: datetime | None = None,
               create_tenant: bool = False, expires_at: str | None = None,
               check_type: bool = False) -> tuple[Fact, str]:
    _require_admin(operator, reason)
    now = now or now_utc()
    tenant = store.tenant(tenant_id, create=create_tenant)
    scope = Scope(kind=fact.scope["kind"], key=fact.scope["key"])
    check_jcs_value(value)
    if expires_at is not None:
        expires_at = format_time(parse_time(expires_at))
    for attempt in range(MAX_ATTEMPTS):
        state = tenant.state()
        policy = tenant.policy(state)
        _check_key(policy, fact.kind, fact.normalized_key, value if check_type else _UNCHECKED)
        current = tenant.fact_at(fact.path, state)
        mid = layout.memory_id(tenant_id, fact.subject_id, fact.scope, fact.kind,
                               fact.normalized_key)
        stamp = format_time(now)
        new = Fact(
            memory_id=mid, version=(current.version + 1) if current else 1,
            frozen=bool(current.frozen if frozen is None and current else frozen),
            tenant_id=tenant_id, subject_id=fact.subject_id, scope=scope, kind=fact.kind,
            normalized_key=fact.normalized_key, value=value, source=FactSource.ADMIN_MANUAL,
            supersedes=current.version if current else None,
            created_at=current.created_at if current else stamp, updated_at=stamp,
            expires_at=expires_at, operator=operator, change_reason=reason,
        )
        changes: dict[str, _git.Oid | None] = {fact.path: tenant.blob(new.to_json())}
        if current is None:
            changes[layout.id_index_path(mid)] = _git.write_blob(tenant.repo, fact.path.encode())
        op = "create" if current is None else "edit"
        message = (
            f"{op}: {fact.kind}/{fact.normalized_key} = "
            f"{json.dumps(value, ensure_ascii=False)[:48]} for {fact.subject_id} (admin)\n\n"
            f"{reason}\n\n"
            f"Memory-Id: {mid}\nFact-Version: {new.version}\nOp: {op}\nDecision: ADMIN_EDIT\n"
            f"Policy-Version: {policy.version}\nOperator: {operator}\nChange-Reason: {reason}\n"
            f"Tenant-Id: {tenant_id}\nSubject-Id: {fact.subject_id}\nTime-Ms: {time_ms(now)}\n"
        )
        done = tenant.commit(state, main=changes, message=message, when=now)
        if done is not None:
            return new, str(done[0])
        backoff(attempt)
    raise InputError("could not write: lost the race too often", code="cas_exhausted")


def set_policy(store: Store, tenant_id: str, data: Any, *, operator: str, reason: str,
               now: datetime | None = None) -> str:
    """Replace a tenant's policy in one reviewed commit, after validating it."""
    policy = parse_policy(data)
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    for attempt in range(MAX_ATTEMPTS):
        state = tenant.state()
        old = tenant.policy(state)
        blob = tenant.blob(policy.to_json())
        message = (f"policy: {policy.name} ({old.version} -> {policy.version})\n\n{reason}\n\n"
                   f"Op: policy\nPolicy-Version: {policy.version}\nOperator: {operator}\n"
                   f"Change-Reason: {reason}\n")
        if tenant.commit(state, main={layout.POLICY_PATH: blob}, message=message,
                         when=now) is not None:
            return policy.version
        backoff(attempt)
    raise InputError("could not write policy: lost the race too often", code="cas_exhausted")


# -- shared helpers ------------------------------------------------------------------

#: ``candidate`` marker of a pending record made by :func:`expire` (not by the gate).
RENEWAL = "renewal"
#: Ops that change a fact's value and therefore may not touch a frozen fact automatically.
ADMIN_DECISION = "ADMIN_EDIT"


def time_ms(moment: datetime) -> int:
    """Milliseconds since the epoch; commit times are whole seconds, the audit wants ms."""
    return int(moment.timestamp() * 1000)


def parse_fact_ref(spec: str) -> FactRef:
    """``SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY`` (how people name a fact on a command line)."""
    parts = spec.split("/")
    if len(parts) != 4 or ":" not in parts[1] or not all(parts):
        raise InputError(f"{spec!r}: a fact is SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY, "
                         "e.g. u1/global:default/preference/editor (or a memoryId)",
                         code="usage")
    skind, _, skey = parts[1].partition(":")
    return FactRef(parts[0], {"kind": skind, "key": skey}, parts[2], parts[3])


def fact_target(text: str) -> str | FactRef:
    """A memoryId (no slash) or a fact spec, as typed."""
    return text if "/" not in text else parse_fact_ref(text)


def resolve_path(tenant: TenantRepo, state: State, target: str | FactRef) -> str:
    """The fact path a memoryId, fact spec or FactRef names (a FactRef need not exist yet)."""
    target = fact_target(target) if isinstance(target, str) else target
    if isinstance(target, FactRef):
        return target.path
    path = tenant.fact_path_of(target, state)
    if path is None:
        raise NotFoundError(f"no fact with memoryId {target!r} in tenant {tenant.tenant_id!r}")
    return path


def _existing(tenant: TenantRepo, state: State, target: str | FactRef) -> tuple[str, Fact]:
    path = resolve_path(tenant, state, target)
    fact = tenant.fact_at(path, state)
    if fact is None:
        raise NotFoundError(f"no fact at {path} in tenant {tenant.tenant_id!r}")
    return path, fact


def _require_admin(operator: str, reason: str) -> None:
    if not operator.strip():
        raise InputError("an admin change needs the operator's identity", code="operator_required")
    if not reason.strip():
        raise InputError("an admin change needs a change reason", code="reason_required")


_UNCHECKED = object()


def _check_key(policy: Policy, kind: str, key: str, value: Any = _UNCHECKED) -> None:
    spec = policy.spec(kind, key)
    if spec is None:
        raise InputError(f"{kind}/{key} is not in the policy's registry", code="unknown_key")
    if value is not _UNCHECKED:
        bad = check_value(spec, value)
        if bad:
            raise InputError(f"{json.dumps(value, ensure_ascii=False)} does not fit "
                             f"{kind}/{key} ({spec.type}): {bad}", code=bad)


def _successor(current: Fact, now: datetime, *, operator: str, reason: str,
               **update: Any) -> Fact:
    """The next version of ``current`` with ``update`` applied (snake_case field names)."""
    fields = {"version": current.version + 1, "supersedes": current.version,
              "updated_at": format_time(now), "operator": operator, "change_reason": reason}
    fields.update(update)
    return Fact.model_validate({**current.model_dump(), **fields})


def _admin_message(summary: str, reason: str, trailers: Sequence[tuple[str, Any]], *,
                   op: str, operator: str, tenant_id: str, now: datetime) -> str:
    lines = [f"{key}: {value}" for key, value in trailers]
    lines += [f"Op: {op}", f"Decision: {ADMIN_DECISION}", f"Operator: {operator}",
              f"Change-Reason: {reason}", f"Tenant-Id: {tenant_id}", f"Time-Ms: {time_ms(now)}"]
    return f"{summary}\n\n{reason}\n\n" + "\n".join(lines) + "\n"


@dataclass(frozen=True)
class AdminResult:
    """Fact versions an admin operation wrote (empty when nothing had to change)."""

    facts: tuple[Fact, ...]
    commit: str | None

    def to_json(self) -> dict[str, Any]:
        return {"commit": self.commit, "facts": [f.to_json() for f in self.facts]}


def _admin_commit(tenant: TenantRepo, build: Any, now: datetime) -> AdminResult:
    """Run ``build(state) -> (changes, message, facts) | AdminResult`` until the CAS holds."""
    for attempt in range(MAX_ATTEMPTS):
        state = tenant.state()
        built = build(state)
        if isinstance(built, AdminResult):
            return built
        changes, message, facts = built
        done = tenant.commit(state, main=changes, message=message, when=now)
        if done is not None:
            return AdminResult(tuple(facts), str(done[0]))
        backoff(attempt)
    raise InputError("could not write: lost the race too often", code="cas_exhausted")


# -- freeze ----------------------------------------------------------------------------


def freeze(store: Store, tenant_id: str, target: str | FactRef, *, operator: str, reason: str,
           frozen: bool = True, now: datetime | None = None) -> AdminResult:
    """Freeze (or unfreeze) a fact: a new version whose only change is the frozen flag.

    A frozen fact stays readable; the gate rejects every proposal for it (reason
    ``frozen``) and confirming a parked proposal for it is rejected too. Admin edits,
    rollback and revocation by the subject still apply. Freezing a frozen fact (or
    unfreezing an unfrozen one) writes nothing.
    """
    _require_admin(operator, reason)
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    op = "freeze" if frozen else "unfreeze"

    def build(state: State) -> Any:
        path, current = _existing(tenant, state, target)
        if current.status is FactStatus.REVOKED:
            raise InputError(f"{current.memory_id} is revoked; there is nothing to {op}",
                             code="revoked")
        if current.frozen == frozen:
            return AdminResult((current,), None)
        new = _successor(current, now, operator=operator, reason=reason, frozen=frozen)
        message = _admin_message(
            f"{op}: {current.kind}/{current.normalized_key} for {current.subject_id}", reason,
            [("Memory-Id", current.memory_id), ("Fact-Version", new.version),
             ("Subject-Id", current.subject_id)],
            op=op, operator=operator, tenant_id=tenant_id, now=now)
        return {path: tenant.blob(new.to_json())}, message, [new]

    return _admin_commit(tenant, build, now)


# -- admin edits -------------------------------------------------------------------------


def edit(store: Store, tenant_id: str, target: str | FactRef, value: Any, *, operator: str,
         reason: str, expires_at: str | None = None, now: datetime | None = None
         ) -> AdminResult:
    """Set a fact's value as an administrator (source admin_manual); creates it if new.

    The value must fit the key's type in the policy. Evidence and proposal fields are
    cleared (the value is the administrator's, not a message's), so revoking the old
    source message no longer touches it. A frozen fact stays frozen.
    """
    tenant = store.tenant(tenant_id)
    target = fact_target(target) if isinstance(target, str) else target
    if isinstance(target, str):  # a memoryId names an existing fact
        _, current = _existing(tenant, tenant.state(), target)
        target = FactRef.of(current)
    fact, commit = _admin_set(store, tenant_id, target, value, operator=operator, reason=reason,
                              now=now, expires_at=expires_at, check_type=True)
    return AdminResult((fact,), commit)


def _derived_entries(tenant: TenantRepo, fact: Fact, path: str, messages: Sequence[str]
                     ) -> dict[str, _git.Oid | None]:
    """``<message>.derived/<memoryId>`` entries, so revoke-by-message reaches ``fact``."""
    blob = _git.write_blob(tenant.repo, path.encode())
    return {layout.derived_path(m, fact.memory_id): blob for m in messages}


def merge(store: Store, tenant_id: str, target: str | FactRef, other: str | FactRef,
          value: Any, *, operator: str, reason: str, now: datetime | None = None
          ) -> AdminResult:
    """Merge two facts of one subject into ``target``, in one commit.

    ``target`` gets ``value`` (source admin_manual); ``other`` is marked REVOKED. Both
    new versions carry ``derivedFrom`` naming the source messages of both facts, and
    the survivor is indexed under each of them, so revoking any original source
    message still revokes the merged fact. The commit trailers name both memoryIds
    (``Merged-From``, ``Merged-Into``).
    """
    _require_admin(operator, reason)
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    check_jcs_value(value)

    def build(state: State) -> Any:
        path, keep = _existing(tenant, state, target)
        other_path, drop = _existing(tenant, state, other)
        if path == other_path:
            raise InputError("merge needs two different facts", code="same_fact")
        if keep.subject_id != drop.subject_id:
            raise InputError("merge joins facts of one subject only", code="cross_subject")
        for fact in (keep, drop):
            if fact.status is not FactStatus.ACTIVE:
                raise InputError(f"{fact.memory_id} is {fact.status.value}; merge needs two "
                                 "active facts", code="not_active")
        _check_key(tenant.policy(state), keep.kind, keep.normalized_key, value)
        sources = tuple(dict.fromkeys(keep.derived_from + drop.derived_from))
        merged = _successor(
            keep, now, operator=operator, reason=reason, value=value,
            source=FactSource.ADMIN_MANUAL, evidence=None, proposal_id=None, payload_hash=None,
            confidence=None, approved_by=None, expires_at=None, derived_from=sources)
        revoked = _successor(
            drop, now, operator=operator, status=FactStatus.REVOKED, derived_from=sources,
            approved_by=None, reason=f"merged into {keep.memory_id}: {reason}")
        changes: dict[str, _git.Oid | None] = {
            path: tenant.blob(merged.to_json()), other_path: tenant.blob(revoked.to_json())}
        changes.update(_derived_entries(tenant, merged, path,
                                        [m for m in sources if m not in keep.derived_from]))
        message = _admin_message(
            f"merge: {drop.kind}/{drop.normalized_key} into {keep.kind}/{keep.normalized_key}"
            f" = {json.dumps(value, ensure_ascii=False)[:40]} for {keep.subject_id}", reason,
            [("Memory-Id", keep.memory_id), ("Memory-Id", drop.memory_id),
             ("Merged-Into", keep.memory_id), ("Merged-From", drop.memory_id),
             ("Subject-Id", keep.subject_id)],
            op="merge", operator=operator, tenant_id=tenant_id, now=now)
        return changes, message, [merged, revoked]

    return _admin_commit(tenant, build, now)


def split(store: Store, tenant_id: str, source: str | FactRef,
          parts: Sequence[tuple[FactRef, Any]], *, operator: str, reason: str,
          now: datetime | None = None) -> AdminResult:
    """Split one fact into several keys of the same subject, in one commit.

    Each part gets its value (source admin_manual) and inherits the source's
    ``derivedFrom`` (and index entries), so revoking the original message revokes the
    parts. The source is marked REVOKED unless it is itself one of the parts. A part
    that already holds an ACTIVE fact is refused: split never silently overwrites.
    """
    _require_admin(operator, reason)
    if len(parts) < 2:
        raise InputError("split needs at least two parts", code="usage")
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    for _, value in parts:
        check_jcs_value(value)

    def build(state: State) -> Any:
        src_path, src = _existing(tenant, state, source)
        if src.status is not FactStatus.ACTIVE:
            raise InputError(f"{src.memory_id} is {src.status.value}; only an active fact "
                             "can be split", code="not_active")
        policy = tenant.policy(state)
        paths = [ref.path for ref, _ in parts]
        if len(set(paths)) != len(paths):
            raise InputError("split parts must be different facts", code="same_fact")
        changes: dict[str, _git.Oid | None] = {}
        written: list[Fact] = []
        stamp = format_time(now)
        for (ref, value), path in zip(parts, paths, strict=True):
            if ref.subject_id != src.subject_id:
                raise InputError("split keeps the subject; parts must belong to "
                                 f"{src.subject_id!r}", code="cross_subject")
            _check_key(policy, ref.kind, ref.normalized_key, value)
            current = tenant.fact_at(path, state)
            if current is not None and path != src_path and current.status is FactStatus.ACTIVE:
                raise InputError(f"{ref.kind}/{ref.normalized_key} already holds an active fact "
                                 f"({current.memory_id}); merge or edit it instead",
                                 code="target_exists")
            mid = layout.memory_id(tenant_id, ref.subject_id, ref.scope, ref.kind,
                                   ref.normalized_key)
            fact = Fact(
                memory_id=mid, version=current.version + 1 if current else 1,
                frozen=current.frozen if current else False, tenant_id=tenant_id,
                subject_id=ref.subject_id, scope=Scope.model_validate(dict(ref.scope)),
                kind=ref.kind, normalized_key=ref.normalized_key, value=value,
                source=FactSource.ADMIN_MANUAL, derived_from=src.derived_from,
                supersedes=current.version if current else None,
                created_at=current.created_at if current else stamp, updated_at=stamp,
                operator=operator, change_reason=f"split from {src.memory_id}: {reason}")
            changes[path] = tenant.blob(fact.to_json())
            if current is None:
                changes[layout.id_index_path(mid)] = _git.write_blob(tenant.repo, path.encode())
            changes.update(_derived_entries(tenant, fact, path, src.derived_from))
            written.append(fact)
        if src_path not in paths:
            revoked = _successor(src, now, operator=operator, status=FactStatus.REVOKED,
                                 approved_by=None,
                                 reason=f"split into {', '.join(f.memory_id for f in written)}: "
                                        f"{reason}")
            changes[src_path] = tenant.blob(revoked.to_json())
            written.append(revoked)
        message = _admin_message(
            f"split: {src.kind}/{src.normalized_key} into "
            f"{', '.join(f'{r.kind}/{r.normalized_key}' for r, _ in parts)} for {src.subject_id}",
            reason,
            [*(("Memory-Id", f.memory_id) for f in written), ("Split-From", src.memory_id),
             ("Subject-Id", src.subject_id)],
            op="split", operator=operator, tenant_id=tenant_id, now=now)
        return changes, message, written

    return _admin_commit(tenant, build, now)


# -- expiry ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExpireResult:
    candidates: tuple[dict[str, Any], ...]     # new pending renewal records
    skipped: tuple[tuple[str, str], ...]       # (memoryId, reason): frozen, already_pending
    commit: str | None                         # the audit-ref commit, if any

    def to_json(self) -> dict[str, Any]:
        return {"commit": self.commit, "candidates": list(self.candidates),
                "skipped": [{"memoryId": m, "reason": r} for m, r in self.skipped]}


def _renewal_lifetime(policy: Policy, fact: Fact) -> timedelta:
    """How long a renewed fact lives: the key's TTL, else its previous lifetime (≥ 1 day)."""
    spec = policy.spec(fact.kind, fact.normalized_key)
    if spec is not None and spec.ttl_days is not None:
        return timedelta(days=spec.ttl_days)
    assert fact.expires_at is not None
    lived = parse_time(fact.expires_at) - parse_time(fact.updated_at)
    return max(lived, timedelta(days=1))


def _renewal_record(tenant: TenantRepo, state: State, path: str, fact: Fact, policy: Policy,
                    now: datetime) -> dict[str, Any]:
    renew_until = format_time(now + _renewal_lifetime(policy, fact))
    evidence_hash = fact.evidence.sha256 if fact.evidence is not None else ""
    confidence = fact.confidence if fact.confidence is not None else 1.0
    payload = canonical.payload_hash(value=fact.value, confidence=confidence,
                                     expires_at=renew_until, evidence_hash=evidence_hash)
    cid = canonical.sha256_hex(canonical.jcs({
        "candidate": RENEWAL, "memoryId": fact.memory_id, "version": fact.version,
        "expiresAt": renew_until}))
    origin = tenant.record(fact.proposal_id, state) if fact.proposal_id else None
    return {
        "proposalId": cid,
        "payloadHash": payload,
        "candidate": RENEWAL,
        "proposal": {
            "tenantId": fact.tenant_id, "subjectId": fact.subject_id,
            "scope": fact.scope.as_dict(), "kind": fact.kind,
            "normalizedKey": fact.normalized_key, "value": fact.value,
            "confidence": confidence, "expiresAt": renew_until,
            "evidence": (fact.evidence.to_json() if fact.evidence is not None
                         else {"messageId": None}),
        },
        "decision": DecisionKind.NEEDS_CONFIRMATION.value,
        "reasons": ["expired", "renewal_candidate"],
        "status": "pending",
        "memoryId": fact.memory_id,
        "factPath": path,
        "policyVersion": policy.version,
        "decidedAt": format_time(now),
        "evidenceQuote": origin.data.get("evidenceQuote") if origin else None,
        "conversationId": origin.data.get("conversationId") if origin else None,
        "base": {"version": fact.version, "payloadHash": fact.payload_hash,
                 "value": fact.value, "status": fact.status.value,
                 "expiresAt": fact.expires_at},
    }


def expire(store: Store, tenant_id: str, *, operator: str = "expire-sweep",
           now: datetime | None = None) -> ExpireResult:
    """Turn every expired ACTIVE fact into a renewal candidate awaiting confirmation.

    Nothing on ``main`` changes: recall already hides an expired fact, and deleting
    it would lose what the person may want back. Each candidate is a pending record
    on the audit ref (listed by ``memrepo pending``) whose payloadHash binds the value
    *and* the proposed new expiry. Confirming it (``memrepo confirm``) writes a new
    version with the same value, evidence and source and ``expiresAt`` = the proposed
    date (sweep time + the key's TTL, or the fact's previous lifetime, at least a
    day), approved by the confirmer; it is CONFLICT if the fact changed meanwhile and
    REJECT if the proposed date has passed too (the next sweep proposes a new one).
    Declining leaves the fact expired. Frozen facts are skipped (a confirmation could
    not change them), as are facts that already have a pending renewal.
    """
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    for attempt in range(MAX_ATTEMPTS):
        state = tenant.state()
        policy = tenant.policy(state)
        records: list[dict[str, Any]] = []
        skipped: list[tuple[str, str]] = []
        for path, fact in tenant.all_facts(state):
            if (fact.status is not FactStatus.ACTIVE or fact.expires_at is None
                    or parse_time(fact.expires_at) > now):
                continue
            if fact.frozen:
                skipped.append((fact.memory_id, "frozen"))
                continue
            if any(r.get("candidate") == RENEWAL and r["base"]["version"] == fact.version
                   for r in tenant.pending_for(fact.memory_id, state)):
                skipped.append((fact.memory_id, "already_pending"))
                continue
            records.append(_renewal_record(tenant, state, path, fact, policy, now))
        if not records:
            return ExpireResult((), tuple(skipped), None)
        audit: dict[str, _git.Oid | None] = {}
        for record in records:
            blob = tenant.blob(record)
            audit[layout.proposal_path(record["proposalId"])] = blob
            audit[layout.pending_path(record["memoryId"], record["proposalId"])] = blob
        lines = [f"expire: {len(records)} fact(s) await renewal", "",
                 "Expired facts are hidden from recall; each is now a candidate awaiting "
                 "confirmation.", ""]
        lines += [f"Memory-Id: {r['memoryId']}" for r in records]
        lines += ["Op: expire", "Decision: NEEDS_CONFIRMATION", f"Operator: {operator}",
                  f"Tenant-Id: {tenant_id}", f"Time-Ms: {time_ms(now)}"]
        done = tenant.commit(state, audit=audit, message="\n".join(lines) + "\n", when=now)
        if done is not None:
            return ExpireResult(tuple(records), tuple(skipped), str(done[1]))
        backoff(attempt)
    raise InputError("could not sweep: lost the race too often", code="cas_exhausted")


def _confirm_renewal(tenant: TenantRepo, state: State, record: Mapping[str, Any], *,
                     approver: str, now: datetime) -> Decision | None:
    """Confirm a renewal candidate; None when the CAS was lost (the caller retries)."""
    base = dict(proposal_id=record["proposalId"], payload_hash=record["payloadHash"],
                memory_id=record["memoryId"])
    current = tenant.fact_at(record["factPath"], state)
    until = record["proposal"]["expiresAt"]
    outcome: tuple[str, DecisionKind, tuple[str, ...]] | None = None
    if _changed_since(record["base"], current):
        outcome = ("conflict", DecisionKind.CONFLICT, ("fact_changed",))
    elif current is not None and current.frozen:
        outcome = ("rejected", DecisionKind.REJECT, ("frozen",))
    elif parse_time(until) <= now:
        outcome = ("rejected", DecisionKind.REJECT, ("already_expired",))
    if outcome is not None:
        status, decision, reasons = outcome
        if _close(tenant, state, record, status=status, decision=decision, reasons=reasons,
                  operator=approver, now=now):
            return Decision(decision=decision, reasons=reasons, **base)
        return None
    assert current is not None
    new = _successor(current, now, operator=approver, expires_at=until, approved_by=approver,
                     reason="renewed after expiry")
    approval = {"approvedBy": approver, "approvedAt": format_time(now),
                "payloadHash": record["payloadHash"], "parkedAs": record["decision"]}
    updated = dict(record, status="confirmed", approval=approval, version=new.version)
    message = (
        f"renew {current.kind}/{current.normalized_key} for {current.subject_id} until {until}\n\n"
        f"Confirmed by {approver} after expiry.\n\n"
        f"Proposal-Id: {record['proposalId']}\nPayload-Hash: {record['payloadHash']}\n"
        f"Memory-Id: {current.memory_id}\nFact-Version: {new.version}\nOp: renew\n"
        f"Decision: COMMIT\nOperator: {approver}\nApproved-By: {approver}\n"
        f"Change-Reason: renewed after expiry\nTenant-Id: {current.tenant_id}\n"
        f"Subject-Id: {current.subject_id}\nTime-Ms: {time_ms(now)}\n")
    done = tenant.commit(
        state, main={record["factPath"]: tenant.blob(new.to_json())},
        audit={layout.proposal_path(record["proposalId"]): tenant.blob(updated),
               layout.pending_path(record["memoryId"], record["proposalId"]): None},
        message=message, when=now)
    if done is None:
        return None
    return Decision(decision=DecisionKind.COMMIT, reasons=("renewal_confirmed",),
                    version=new.version, commit=str(done[0]), **base)
