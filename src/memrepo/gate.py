"""The write gate: validate → verify → analyse → decide → commit, re-deciding after a lost race.

The gate is the only way an extractor's proposal reaches ``main``. It trusts nothing
in the proposal beyond its identity: the evidence is re-read from the stored message,
authorship and origin come from that message, and the decision comes from the policy
in the repository at the tip being written on. If that tip moves before the commit is
published, the compare-and-swap fails and the proposal is decided again from scratch
against the new tip, so a loser never overwrites what landed meanwhile.

Proposals are decided in batches (issue 6, :mod:`memrepo.groupcommit`): concurrent
:func:`submit` calls for one tenant join one batch, and :func:`submit_many` is one. A
batch is decided in order against its own moving tip, every proposal still its own
commit with its own trailers, then published with one pack and one compare-and-swap;
a batch that loses the race is decided again as a whole.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from . import _git, canonical, evidence, groupcommit, layout, secrets, sensitive, stats
from . import analysis as analysis_mod
from .errors import InputError, StoreError
from .policy import GateInput, Policy, Verdict, decide, effective_expiry
from .proposal import (
    PARKED,
    Decision,
    DecisionKind,
    Fact,
    FactSource,
    MemoryProposal,
    Message,
    format_time,
    parse_proposal,
)
from .store import State, Store, TenantRepo, now_utc

#: How many times a proposal is re-decided after losing a compare-and-swap.
MAX_ATTEMPTS = 200
GATE_OPERATOR = "gate"


def backoff(attempt: int) -> None:
    """Sleep a random while, longer after each lost compare-and-swap (at most 50 ms)."""
    time.sleep(random.uniform(0, min(0.05, 0.001 * 2 ** min(attempt, 6))))


def lost_race(proposal_id: str, payload_hash: str) -> Decision:
    """The answer for a proposal that lost its compare-and-swap :data:`MAX_ATTEMPTS` times."""
    return Decision(decision=DecisionKind.CONFLICT, reasons=("lost_race_repeatedly",),
                    proposal_id=proposal_id, payload_hash=payload_hash)


@dataclass(frozen=True)
class Assessment:
    """Everything the gate worked out about one proposal at one tip."""

    proposal: MemoryProposal
    policy: Policy
    verdict: Verdict
    message: Message | None
    analysis: analysis_mod.Analysis | None
    fact_path: str
    memory_id: str
    current: Fact | None

    @property
    def quote(self) -> str | None:
        if self.message is None:
            return None
        ev = self.proposal.evidence
        return self.message.text[ev.start : ev.end] if ev.end <= len(self.message.text) else None


def submit(store: Store, raw: Mapping[str, Any] | str | bytes | MemoryProposal, *,
           now: datetime | None = None) -> Decision:
    """Decide one proposal and make the decision durable. Never raises for bad input:
    an invalid proposal is a REJECT with the validation reason.

    Concurrent callers on one tenant (threads or processes) are decided together in one
    batch (group commit); a caller alone is decided at once. Raises StoreError when the
    decision could not be written (e.g. the disk is full): nothing was decided then.
    """
    now = now or now_utc()
    try:
        proposal = raw if isinstance(raw, MemoryProposal) else parse_proposal(raw)
    except InputError as exc:
        return _reject_invalid(store, raw, exc, now)
    if not store.has_tenant(proposal.tenant_id):
        return _unknown_tenant(proposal)
    tenant = store.tenant(proposal.tenant_id)
    return groupcommit.submit(tenant, groupcommit.Item(proposal, now, store.durable),
                              decide_batch)


def submit_many(store: Store, raws: Sequence[Mapping[str, Any] | str | bytes | MemoryProposal],
                *, now: datetime | None = None) -> list[Decision]:
    """Decide proposals in order as one batch per tenant: one pack and one compare-and-swap
    per batch, each proposal still its own commit (or audit record) with its own trailers.

    The answer for each proposal is what :func:`submit` would have said, had they been
    submitted one after another. Invalid proposals are rejected first (each recorded on
    its own). Raises StoreError when a batch could not be written: none of that tenant's
    proposals were decided then (batches of other tenants written before it stand).
    """
    now = now or now_utc()
    out: list[Decision | None] = [None] * len(raws)
    by_tenant: dict[str, list[tuple[int, MemoryProposal]]] = {}
    for index, raw in enumerate(raws):
        try:
            proposal = raw if isinstance(raw, MemoryProposal) else parse_proposal(raw)
        except InputError as exc:
            out[index] = _reject_invalid(store, raw, exc, now)
            continue
        if not store.has_tenant(proposal.tenant_id):
            out[index] = _unknown_tenant(proposal)
            continue
        by_tenant.setdefault(proposal.tenant_id, []).append((index, proposal))
    for tenant_id, entries in by_tenant.items():
        tenant = store.tenant(tenant_id)
        items = [groupcommit.Item(p, now, store.durable) for _, p in entries]
        results = groupcommit.lead(tenant, items, decide_batch)
        for (index, _), result in zip(entries, results, strict=True):
            if isinstance(result, BaseException):
                raise result
            out[index] = result
    assert all(d is not None for d in out)
    return out  # type: ignore[return-value]


def _unknown_tenant(proposal: MemoryProposal) -> Decision:
    return Decision(decision=DecisionKind.REJECT, reasons=("unknown_tenant",),
                    proposal_id=proposal.id, payload_hash=proposal.payload_hash)


def decide_batch(tenant: TenantRepo, items: list[groupcommit.Item], durable: bool
                 ) -> list[groupcommit.Result]:
    """Decide ``items`` in order on one staged batch and publish it; on a lost race, decide
    them all again on the new tips. One result per item: its Decision, or the exception
    deciding it raised (the others are still decided). Raises StoreError when the batch
    cannot be written."""
    raced = False
    results: list[groupcommit.Result] = []
    for attempt in range(MAX_ATTEMPTS):
        with tenant.staged() as batch:
            results = []
            for item in items:
                try:
                    results.append(_decide_staged(tenant, item, raced=raced))
                except Exception as exc:  # this proposal's answer; the batch goes on
                    results.append(exc)
            if batch.publish(durable=durable):
                break
        raced = True
        backoff(attempt)
    else:
        return [lost_race(i.proposal.id, i.proposal.payload_hash) for i in items]
    for item, result in zip(items, results, strict=True):
        if isinstance(result, Decision) and result.decision is DecisionKind.DUPLICATE:
            stats.note_replay(tenant, item.proposal.id)
    return results


def _decide_staged(tenant: TenantRepo, item: groupcommit.Item, *, raced: bool) -> Decision:
    """One proposal on the batch's current tip (a replay check, then assess and apply)."""
    proposal, now = item.proposal, item.now
    state = tenant.state()
    seen = tenant.record(proposal.id, state)
    if seen is not None:
        return replay(seen.data, proposal)
    assessment = assess(tenant, state, proposal, now)
    decision = _apply(tenant, state, assessment, now, raced=raced)
    if decision is None:  # only if the state was not the batch's tip: a bug
        raise StoreError("a staged decision was refused", code="batch_inconsistent")
    return decision


def replay(record: Mapping[str, Any], proposal: MemoryProposal) -> Decision:
    """The answer to a proposalId seen before: the original result, or a protocol conflict."""
    if record["payloadHash"] != proposal.payload_hash:
        return Decision(decision=DecisionKind.PROTOCOL_CONFLICT,
                        reasons=("same_proposal_id_different_payload",),
                        proposal_id=proposal.id, payload_hash=proposal.payload_hash)
    return Decision(
        decision=DecisionKind.DUPLICATE,
        reasons=("duplicate", f"original_{record['decision'].lower()}",
                 f"status_{record['status']}"),
        proposal_id=proposal.id,
        payload_hash=proposal.payload_hash,
        memory_id=record.get("memoryId"),
        version=record.get("version"),
        policy_version=record.get("policyVersion"),
    )


def assess(tenant: TenantRepo, state: State, proposal: MemoryProposal, now: datetime,
           *, policy: Policy | None = None) -> Assessment:
    """Gather and verify everything the matrix needs at this tip, then decide (no writes)."""
    policy = policy or tenant.policy(state)
    p = proposal
    scope = p.scope.as_dict()
    path = layout.fact_path(p.subject_id, scope, p.kind, p.normalized_key)
    mid = layout.memory_id(p.tenant_id, p.subject_id, scope, p.kind, p.normalized_key)
    message = tenant.message(p.evidence.message_id, state)
    verification = evidence.verify(p, message)
    found = None
    secret_reasons: list[str] = [f"secret_in_value_{f.kind}"
                                 for f in secrets.find_secrets_in_value(p.value)]
    if message is not None and p.evidence.end <= len(message.text):
        span = message.text[p.evidence.start : p.evidence.end]
        secret_reasons += [f"secret_in_evidence_{f.kind}" for f in secrets.find_secrets(span)]
        conversation = tenant.conversation(message.conversation_id, state) or [message]
        found = analysis_mod.analyse(
            message.text, p.evidence.start, p.evidence.end, p.value,
            aliases=policy.aliases_for(p.kind, p.normalized_key),
            conversation=conversation, message_id=message.message_id,
            author_id=p.subject_id,
        )
    current = tenant.fact_at(path, state)
    competing = tuple(  # a renewal candidate (lifecycle.expire) competes with nothing
        r["proposal"]["value"] for r in tenant.pending_for(mid, state)
        if r["proposalId"] != p.id and "candidate" not in r
    )
    gi = GateInput(proposal=p, now=now, verification=verification, analysis=found,
                   secret_reasons=tuple(dict.fromkeys(secret_reasons)), current=current,
                   competing=competing,
                   sensitive_reasons=tuple(f"sensitive_{c}"
                                           for c in sensitive.sensitive_categories(p.value)))
    verdict = decide(policy, gi)
    return Assessment(p, policy, verdict, message, found, path, mid, current)


def _apply(tenant: TenantRepo, state: State, a: Assessment, now: datetime, *,
           raced: bool) -> Decision | None:
    verdict = a.verdict
    reasons = verdict.reasons + (("re_decided_after_race",) if raced else ())
    if verdict.decision is DecisionKind.COMMIT:
        return commit_fact(tenant, state, a, now, reasons=reasons, operator=GATE_OPERATOR)
    status = "pending" if verdict.decision in PARKED or verdict.decision is DecisionKind.CONFLICT \
        else "rejected"
    record = proposal_record(a, now, decision=verdict.decision, reasons=reasons, status=status)
    blob = tenant.blob(record)
    changes = {layout.proposal_path(a.proposal.id): blob}
    if status == "pending":
        changes[layout.pending_path(a.memory_id, a.proposal.id)] = blob
    message = (
        f"{verdict.decision.value.lower()}: {_describe(a.proposal)}\n\n"
        f"Reasons: {', '.join(reasons)}\n\n"
        + trailers(a, decision=verdict.decision, operator=GATE_OPERATOR, version=None)
    )
    if tenant.commit(state, audit=changes, message=message, when=now) is None:
        return None
    return Decision(decision=verdict.decision, reasons=reasons, proposal_id=a.proposal.id,
                    payload_hash=a.proposal.payload_hash, memory_id=a.memory_id,
                    policy_version=a.policy.version)


def commit_fact(
    tenant: TenantRepo, state: State, a: Assessment, now: datetime, *, reasons: tuple[str, ...],
    operator: str, approval: Mapping[str, Any] | None = None,
    audit: Mapping[str, Any] | None = None,
) -> Decision | None:
    """Write the fact version, its proposal record and its source message in one commit."""
    p = a.proposal
    assert a.message is not None
    current = a.current
    version = current.version + 1 if current is not None else 1
    stamp = format_time(now)
    fact = Fact(
        memory_id=a.memory_id, version=version, frozen=False, tenant_id=p.tenant_id,
        subject_id=p.subject_id, scope=p.scope, kind=p.kind, normalized_key=p.normalized_key,
        value=p.value,
        source=FactSource.USER_EXPLICIT if a.analysis is not None and a.analysis.explicit
        else FactSource.SYSTEM_INFERRED,
        evidence=p.evidence, derived_from=(p.evidence.message_id,),
        supersedes=current.version if current is not None else None,
        proposal_id=p.id, payload_hash=p.payload_hash, confidence=p.confidence,
        created_at=current.created_at if current is not None else stamp, updated_at=stamp,
        expires_at=effective_expiry(a.policy, p.kind, p.normalized_key, p.expires_at, now),
        operator=operator, approved_by=(approval or {}).get("approvedBy"),
    )
    record = proposal_record(a, now, decision=DecisionKind.COMMIT, reasons=reasons,
                             status="committed", version=version, approval=approval)
    record_blob = tenant.blob(record)
    message_blob = _stored_message_blob(state, a.message.message_id) \
        or tenant.blob(a.message.to_json())
    path_blob = _git.write_blob(tenant.repo, a.fact_path.encode())
    changes = {
        a.fact_path: tenant.blob(fact.to_json()),
        layout.proposal_path(p.id): record_blob,
        layout.message_path(a.message.message_id): message_blob,
        layout.derived_path(a.message.message_id, a.memory_id): path_blob,
    }
    if current is None:
        changes[layout.id_index_path(a.memory_id)] = path_blob
    audit_changes = None
    if audit is not None:
        audit_changes = {key: (tenant.blob(v) if isinstance(v, dict) else v)
                         for key, v in audit.items()}
    verb = "remember" if current is None else "update"
    quote = a.quote or ""
    message = (
        f"{verb} {_describe(p)}\n\n"
        f"Subject {p.subject_id}, scope {p.scope.kind}/{p.scope.key}, version {version}"
        f"{' (new)' if current is None else f' (was {_json(current.value)})'}.\n"
        f"Evidence {p.evidence.message_id}[{p.evidence.start}:{p.evidence.end}]: "
        f"{json.dumps(quote, ensure_ascii=False)}\n"
        f"Reasons: {', '.join(reasons)}\n\n"
        + trailers(a, decision=DecisionKind.COMMIT, operator=operator, version=version,
                   approved_by=(approval or {}).get("approvedBy"))
    )
    done = tenant.commit(state, main=changes, audit=audit_changes, message=message, when=now)
    if done is None:
        return None
    return Decision(decision=DecisionKind.COMMIT, reasons=reasons, proposal_id=p.id,
                    payload_hash=p.payload_hash, memory_id=a.memory_id, version=version,
                    commit=str(done[0]), policy_version=a.policy.version)


def _stored_message_blob(state: State, message_id: str) -> _git.Oid | None:
    """The blob of the stored source message (the message read for the decision is this
    blob, parsed), so a commit reuses it instead of serialising the message again."""
    path = layout.message_path(message_id)
    obj = _git.lookup(state.main_tree, path) or _git.lookup(state.audit_tree, path)
    return obj.id if obj is not None and obj.type_str == "blob" else None


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _describe(p: MemoryProposal) -> str:
    value = json.dumps(p.value, ensure_ascii=False)
    if len(value) > 48:
        value = value[:45] + "…"
    return f"{p.kind}/{p.normalized_key} = {value} for {p.subject_id}"


def trailers(a: Assessment, *, decision: DecisionKind, operator: str, version: int | None,
             approved_by: str | None = None) -> str:
    p = a.proposal
    lines = [
        f"Proposal-Id: {p.id}",
        f"Payload-Hash: {p.payload_hash}",
        f"Memory-Id: {a.memory_id}",
    ]
    if version is not None:
        lines.append(f"Fact-Version: {version}")
    if decision is DecisionKind.COMMIT:
        lines.append(f"Op: {'create' if a.current is None else 'update'}")
    lines += [
        f"Decision: {decision.value}",
        f"Policy-Version: {a.policy.version}",
        f"Operator: {operator}",
    ]
    if approved_by:
        lines.append(f"Approved-By: {approved_by}")
    lines += [
        f"Tenant-Id: {p.tenant_id}",
        f"Subject-Id: {p.subject_id}",
        f"Source-Message: {p.evidence.message_id}",
        f"Conversation-Id: {a.message.conversation_id if a.message else '-'}",
    ]
    return "\n".join(lines) + "\n"


def proposal_record(a: Assessment, now: datetime, *, decision: DecisionKind,
                    reasons: tuple[str, ...], status: str, version: int | None = None,
                    approval: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The immutable record of a proposal and what was decided about it."""
    record: dict[str, Any] = {
        "proposalId": a.proposal.id,
        "payloadHash": a.proposal.payload_hash,
        "proposal": a.proposal.to_json(),
        "decision": decision.value,
        "reasons": list(reasons),
        "status": status,
        "memoryId": a.memory_id,
        "factPath": a.fact_path,
        "policyVersion": a.policy.version,
        "decidedAt": format_time(now),
        "evidenceQuote": a.quote,
        "conversationId": a.message.conversation_id if a.message else None,
        "base": None if a.current is None else {
            "version": a.current.version, "payloadHash": a.current.payload_hash,
            "value": a.current.value, "status": a.current.status.value,
        },
    }
    if a.analysis is not None:
        record["analysis"] = {"cues": list(a.analysis.cues), "lang": a.analysis.lang}
    if version is not None:
        record["version"] = version
    if approval is not None:
        record["approval"] = dict(approval)
    return record


def _reject_invalid(store: Store, raw: Any, exc: InputError, now: datetime) -> Decision:
    """Record a proposal that failed validation on its tenant's audit ref, if it has one."""
    reasons = ("invalid_proposal", exc.code)
    tenant_id = raw.get("tenantId") if isinstance(raw, Mapping) else None
    if isinstance(tenant_id, str) and store.has_tenant(tenant_id):
        try:
            body = canonical.jcs(dict(raw))
        except InputError:
            body = repr(raw).encode("utf-8", "backslashreplace")
        digest = canonical.sha256_hex(body)
        tenant = store.tenant(tenant_id)
        entry = {"error": exc.message, "code": exc.code, "decidedAt": format_time(now),
                 "raw": body.decode("utf-8", "replace")}
        for _ in range(MAX_ATTEMPTS):
            state = tenant.state()
            done = tenant.commit(
                state, audit={layout.invalid_path(digest): tenant.blob(entry)},
                message=f"reject: invalid proposal ({exc.code})\n\n{exc.message[:200]}\n\n"
                        f"Decision: REJECT\nOperator: {GATE_OPERATOR}\n",
                when=now)
            if done is not None:
                break
    return Decision(decision=DecisionKind.REJECT, reasons=reasons)
