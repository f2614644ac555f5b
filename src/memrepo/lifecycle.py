"""Changes people make to memory after the gate: confirm, decline, revoke, admin edits.

Every change is a new commit through the same compare-and-swap path as the gate; none
rewrites ``main`` or deletes evidence. Approvals bind proposalId *and* payloadHash, and
confirming re-checks the current state, so an approval can never be replayed onto a
fact that changed since the person looked at it.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from . import _git, layout
from .errors import InputError, NotFoundError
from .gate import MAX_ATTEMPTS, assess, commit_fact
from .policy import parse_policy
from .proposal import (
    Decision,
    DecisionKind,
    Fact,
    FactSource,
    FactStatus,
    MemoryProposal,
    Scope,
    format_time,
)
from .store import State, Store, TenantRepo, now_utc


def _backoff(attempt: int) -> None:
    time.sleep(random.uniform(0, min(0.05, 0.001 * 2 ** min(attempt, 6))))


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
            _backoff(attempt)
            continue
        if _close(tenant, state, record, status=status, decision=decision, reasons=reasons,
                  operator=approver, now=now):
            return Decision(decision=decision, reasons=tuple(reasons), **base)
        _backoff(attempt)
    return Decision(decision=DecisionKind.CONFLICT, reasons=("lost_race_repeatedly",),
                    proposal_id=proposal_id, payload_hash=payload_hash)


def _changed_since(base: Mapping[str, Any] | None, current: Fact | None) -> bool:
    if base is None:
        return current is not None and current.status is FactStatus.ACTIVE
    if current is None:
        return True
    return current.version != base["version"]


def _close(tenant: TenantRepo, state: State, record: Mapping[str, Any], *, status: str,
           decision: DecisionKind, reasons: Sequence[str], operator: str, now: datetime) -> bool:
    updated = dict(record, status=status, closedBy=operator, closedAt=format_time(now),
                   closeReasons=list(reasons))
    changes = {layout.proposal_path(record["proposalId"]): tenant.blob(updated),
               layout.pending_path(record["memoryId"], record["proposalId"]): None}
    message = (f"{status}: proposal {record['proposalId'][:12]} "
               f"({record['proposal']['kind']}/{record['proposal']['normalizedKey']})\n\n"
               f"Proposal-Id: {record['proposalId']}\nPayload-Hash: {record['payloadHash']}\n"
               f"Decision: {decision.value}\nOperator: {operator}\n")
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
        _backoff(attempt)
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


@dataclass(frozen=True)
class RevokeResult:
    revoked: tuple[str, ...]          # memoryIds marked REVOKED
    declined: tuple[str, ...]         # pending proposalIds closed
    commit: str | None


def revoke(store: Store, tenant_id: str, *, message_id: str | None = None,
           fact: FactRef | None = None, operator: str, reason: str = "revoked by subject",
           now: datetime | None = None) -> RevokeResult:
    """Mark facts REVOKED in one new commit: every fact derived from a message, or one fact.

    Pending proposals from that message leave the queue too. History and evidence stay.
    """
    if (message_id is None) == (fact is None):
        raise InputError("revoke needs exactly one of a message id or a fact", code="usage")
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    for attempt in range(MAX_ATTEMPTS):
        state = tenant.state()
        paths: list[str] = []
        if message_id is not None:
            obj = _git.lookup(state.main_tree, layout.derived_dir(message_id))
            if obj is not None:
                paths = [_git.read_blob(tenant.repo, oid).decode()
                         for _, oid in _git.walk_blobs(tenant.repo, obj)]
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
                  f"Change-Reason: {reason}"]
        if message_id:
            lines.append(f"Source-Message: {message_id}")
        done = tenant.commit(state, main=main or None, audit=audit or None,
                             message="\n".join(lines) + "\n", when=now)
        if done is not None:
            return RevokeResult(tuple(revoked), tuple(declined),
                                str(done[0]) if main else None)
        _backoff(attempt)
    raise InputError("could not revoke: lost the race too often", code="cas_exhausted")


def admin_set(store: Store, tenant_id: str, fact: FactRef, value: Any, *, operator: str,
              reason: str, frozen: bool | None = None, now: datetime | None = None,
              create_tenant: bool = False) -> Fact:
    """An administrator sets a fact's value (and optionally freezes it), source admin_manual.

    This is the path for seeding facts and for edits with a change reason; it bypasses
    the extractor but not the audit trail: one commit, operator and reason in trailers.
    """
    if not reason.strip():
        raise InputError("an admin edit needs a change reason", code="reason_required")
    now = now or now_utc()
    tenant = store.tenant(tenant_id, create=create_tenant)
    scope = Scope(kind=fact.scope["kind"], key=fact.scope["key"])
    from .canonical import check_jcs_value

    check_jcs_value(value)
    for attempt in range(MAX_ATTEMPTS):
        state = tenant.state()
        policy = tenant.policy(state)
        if policy.spec(fact.kind, fact.normalized_key) is None:
            raise InputError(f"{fact.kind}/{fact.normalized_key} is not in the policy's registry",
                             code="unknown_key")
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
            operator=operator, change_reason=reason,
        )
        changes: dict[str, _git.Oid | None] = {fact.path: tenant.blob(new.to_json())}
        if current is None:
            changes[layout.id_index_path(mid)] = tenant.repo.create_blob(fact.path.encode())
        op = "create" if current is None else "edit"
        message = (
            f"{op}: {fact.kind}/{fact.normalized_key} = "
            f"{json.dumps(value, ensure_ascii=False)[:48]} for {fact.subject_id} (admin)\n\n"
            f"{reason}\n\n"
            f"Memory-Id: {mid}\nFact-Version: {new.version}\nOp: {op}\nDecision: ADMIN_EDIT\n"
            f"Policy-Version: {policy.version}\nOperator: {operator}\nChange-Reason: {reason}\n"
        )
        if tenant.commit(state, main=changes, message=message, when=now) is not None:
            return new
        _backoff(attempt)
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
        _backoff(attempt)
    raise InputError("could not write policy: lost the race too often", code="cas_exhausted")
