"""Reading the history back: the audit view, ``explain`` for one fact, and JSONL export.

Everything here is derived from git alone, so it can be checked against ``git log``:
the audit view has one entry per fact file a commit on ``main`` changed (op from the
commit's ``Op:`` trailer, old and new version from the two blobs), plus the commits on
the audit ref that change no fact but close or open a question (decline, close,
expire, and revocations that only closed pending proposals). A commit on ``main``
that changes no fact (a policy change) has one entry without a memoryId.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from . import _git, layout
from .errors import NotFoundError
from .lifecycle import FactRef, fact_target, resolve_path
from .proposal import Fact, FactSource, FactStatus, parse_time
from .snapshots import resolve_target
from .store import Store, TenantRepo, now_utc

#: Ops of commits on the audit ref that the audit view lists (all others mirror a main
#: commit or record what the gate parked/rejected, which ``pending``/``history`` show).
AUDIT_REF_OPS = frozenset({"decline", "close", "expire", "revoke"})
#: Ops that write a new version but keep the value (and its provenance) as it was.
KEEP_VALUE_OPS = frozenset({"freeze", "unfreeze", "revoke", "renew"})
OP_TYPES = ("create", "update", "revoke", "restore", "freeze", "unfreeze", "edit", "merge",
            "split", "expire", "renew", "decline", "close", "policy")


@dataclass(frozen=True)
class AuditEntry:
    """One operation on one fact (or one pending record), as git recorded it."""

    op_id: str                      # the commit id
    ref: str                        # "main" or "audit"
    op: str
    memory_id: str | None
    subject_id: str | None
    old_version: int | None
    new_version: int | None
    old_status: str | None
    new_status: str | None
    operator: str | None
    approved_by: str | None
    trigger: str | None             # the quoted evidence, or else the change reason
    time_ms: int
    change_reason: str | None
    conversation_id: str | None
    proposal_id: str | None
    restore_target: str | None
    old_value: Any = None
    new_value: Any = None

    def to_json(self) -> dict[str, Any]:
        return {
            "opId": self.op_id, "ref": self.ref, "op": self.op, "memoryId": self.memory_id,
            "subjectId": self.subject_id, "oldVersion": self.old_version,
            "newVersion": self.new_version, "oldStatus": self.old_status,
            "newStatus": self.new_status, "oldValue": self.old_value,
            "newValue": self.new_value, "operator": self.operator,
            "approvedBy": self.approved_by, "trigger": self.trigger, "timeMs": self.time_ms,
            "changeReason": self.change_reason, "conversationId": self.conversation_id,
            "proposalId": self.proposal_id, "restoreTarget": self.restore_target,
        }


def _facts_tree(commit: Any) -> Any:
    return _git.lookup(commit.tree, "facts")


def fact_changes(tenant: TenantRepo, commit: Any) -> list[tuple[str, Fact | None, Fact | None]]:
    """(path, old fact, new fact) for every fact file ``commit`` changed against its parent."""
    parent = (_git.get_commit(tenant.repo, commit.parent_ids[0]) if commit.parent_ids
              else None)
    before = _facts_tree(parent) if parent is not None else None
    out = []
    for path, old, new in _git.diff_blobs(tenant.repo, before, _facts_tree(commit), "facts/"):
        out.append((path, _load(tenant, old), _load(tenant, new)))
    return out


def _load(tenant: TenantRepo, oid: _git.Oid | None) -> Fact | None:
    if oid is None:
        return None
    return Fact.model_validate(json.loads(_git.read_blob(tenant.repo, oid)))


def _record_at(tenant: TenantRepo, tree: Any, pid: str | None) -> dict[str, Any] | None:
    if not pid:
        return None
    try:
        raw = _git.lookup_blob(tenant.repo, tree, layout.proposal_path(pid))
    except ValueError:
        return None
    return json.loads(raw) if raw else None


def _time_ms(trailers: Mapping[str, str], fact: Fact | None, op: str, commit: Any) -> int:
    if "Time-Ms" in trailers:
        try:
            return int(trailers["Time-Ms"])
        except ValueError:
            pass
    if fact is not None and op in ("create", "update"):
        return int(parse_time(fact.updated_at).timestamp() * 1000)
    return int(commit.commit_time) * 1000


def _main_entries(tenant: TenantRepo, commit: Any) -> list[AuditEntry]:
    trailers = _git.parse_trailers(commit.message)
    op = trailers.get("Op")
    if op is None:
        return []
    pid = trailers.get("Proposal-Id")
    record = _record_at(tenant, commit.tree, pid)
    quote = record.get("evidenceQuote") if record else None
    reason = trailers.get("Change-Reason")
    if reason is None and record is not None and op in ("create", "update"):
        reason = ", ".join(record.get("reasons", []))
    conversation = trailers.get("Conversation-Id") or (record or {}).get("conversationId")
    changes = fact_changes(tenant, commit) or [(None, None, None)]
    entries = []
    for _path, old, new in changes:
        fact = new or old
        memory_id = fact.memory_id if fact else trailers.get("Memory-Id")
        entries.append(AuditEntry(
            op_id=str(commit.id), ref="main", op=op, memory_id=memory_id,
            subject_id=fact.subject_id if fact else trailers.get("Subject-Id"),
            old_version=old.version if old else None,
            new_version=new.version if new else None,
            old_status=old.status.value if old else None,
            new_status=new.status.value if new else None,
            operator=trailers.get("Operator"), approved_by=trailers.get("Approved-By"),
            trigger=quote if quote is not None else reason,
            time_ms=_time_ms(trailers, new, op, commit), change_reason=reason,
            conversation_id=None if conversation in (None, "-") else conversation,
            proposal_id=pid, restore_target=trailers.get("Restore-Target"),
            old_value=old.value if old else None, new_value=new.value if new else None,
        ))
    return entries


def _audit_ref_entries(tenant: TenantRepo, commit: Any) -> list[AuditEntry]:
    lines = _git.trailer_lines(commit.message)
    trailers = dict(lines)
    op = trailers.get("Op")
    if op not in AUDIT_REF_OPS:
        return []
    if op == "revoke" and any(k == "Memory-Id" for k, _ in lines):
        return []  # it revoked facts: the twin commit on main carries the story
    parent = (_git.get_commit(tenant.repo, commit.parent_ids[0]) if commit.parent_ids
              else None)
    before = _git.lookup(parent.tree, "proposals") if parent is not None else None
    entries = []
    for _path, _old, new in _git.diff_blobs(tenant.repo, before,
                                            _git.lookup(commit.tree, "proposals"),
                                            "proposals/"):
        if new is None:
            continue
        record = json.loads(_git.read_blob(tenant.repo, new))
        base = record.get("base") or {}
        reason = trailers.get("Change-Reason") or ", ".join(record.get("reasons", []))
        quote = record.get("evidenceQuote")
        entries.append(AuditEntry(
            op_id=str(commit.id), ref="audit", op=op, memory_id=record.get("memoryId"),
            subject_id=record.get("proposal", {}).get("subjectId"),
            old_version=base.get("version") if op == "expire" else None, new_version=None,
            old_status=base.get("status") if op == "expire" else None, new_status=None,
            operator=trailers.get("Operator"), approved_by=None,
            trigger=quote if quote is not None else reason,
            time_ms=_time_ms(trailers, None, op, commit), change_reason=reason,
            conversation_id=record.get("conversationId"),
            proposal_id=record.get("proposalId"), restore_target=None,
            old_value=base.get("value") if op == "expire" else None,
        ))
    return entries


def audit(store: Store, tenant_id: str, *, since: datetime | None = None,
          until: datetime | None = None, subject: str | None = None,
          ops: Collection[str] | None = None) -> list[AuditEntry]:
    """Every operation recorded in the tenant's history, oldest first, optionally filtered.

    ``since``/``until`` bound the operation time (inclusive), ``subject`` keeps one
    subject's entries, ``ops`` keeps the named op types (see :data:`OP_TYPES`).
    """
    tenant = store.tenant(tenant_id)
    state = tenant.state()
    entries: list[AuditEntry] = []
    for commit in reversed(list(_git.first_parent_chain(tenant.repo, state.main))):
        entries += _main_entries(tenant, commit)
    for commit in reversed(list(_git.first_parent_chain(tenant.repo, state.audit))):
        entries += _audit_ref_entries(tenant, commit)
    entries.sort(key=lambda e: e.time_ms)  # stable: each ref's own order is kept
    lo = None if since is None else int(since.timestamp() * 1000)
    hi = None if until is None else int(until.timestamp() * 1000)
    return [e for e in entries
            if (lo is None or e.time_ms >= lo) and (hi is None or e.time_ms <= hi)
            and (subject is None or e.subject_id == subject)
            and (ops is None or e.op in ops)]


# -- export ------------------------------------------------------------------------------


def export(store: Store, tenant_id: str, *, history: bool = False, as_of: str | None = None
           ) -> Iterator[dict[str, Any]]:
    """Every fact of a tenant as JSON objects (one per JSONL line), any status.

    Without ``history``: the fact files at ``as_of`` (a snapshot tag or commit on main;
    default the tip), each line a Fact exactly as stored. With ``history``: every
    version ever written up to ``as_of``, oldest first, each line
    ``{"commit", "timeMs", "op", "path", "fact"}``.
    """
    tenant = store.tenant(tenant_id)
    state = tenant.state()
    tip = resolve_target(tenant, as_of, state) if as_of else state.main
    if tip is None:
        return
    if not history:
        facts = _git.lookup(_git.get_commit(tenant.repo, tip).tree, "facts")
        if facts is None:
            return
        for _path, oid in sorted(_git.walk_blobs(tenant.repo, facts, "facts/")):
            yield json.loads(_git.read_blob(tenant.repo, oid))
        return
    for commit in reversed(list(_git.first_parent_chain(tenant.repo, tip))):
        trailers = _git.parse_trailers(commit.message)
        op = trailers.get("Op", "-")
        for path, _old, new in fact_changes(tenant, commit):
            if new is None:
                continue
            yield {"commit": str(commit.id), "timeMs": _time_ms(trailers, new, op, commit),
                   "op": op, "path": path, "fact": new.to_json()}


# -- explain ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Explanation:
    """The four answers for one fact: who proposed it, on what evidence, who approved
    it, how to revoke it, each with the commits behind it."""

    tenant_id: str
    fact: Fact
    path: str
    proposed_by: str
    evidence: dict[str, Any] | None
    approved_by: str
    revoke_commands: tuple[str, ...]
    value_commit: str
    latest_commit: str
    status_notes: tuple[str, ...] = ()
    events: tuple[dict[str, Any], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"tenantId": self.tenant_id, "memoryId": self.fact.memory_id,
                "path": self.path, "fact": self.fact.to_json(), "proposedBy": self.proposed_by,
                "evidence": self.evidence, "approvedBy": self.approved_by,
                "revoke": list(self.revoke_commands), "valueCommit": self.value_commit,
                "latestCommit": self.latest_commit, "status": list(self.status_notes),
                "events": list(self.events)}

    def text(self) -> str:
        """The explanation in plain words, for a person."""
        f = self.fact
        value = json.dumps(f.value, ensure_ascii=False)
        lines = [f"{f.kind}/{f.normalized_key} = {value} for {f.subject_id} "
                 f"[{f.scope.kind}:{f.scope.key}], version {f.version}, {f.status.value.lower()}"
                 f" (memoryId {f.memory_id})."]
        lines += [f"Note: {n}" for n in self.status_notes]
        lines.append(f"Who proposed it: {self.proposed_by}")
        if self.evidence is None:
            lines.append("On what evidence: none; the value was entered by an administrator.")
        else:
            ev = self.evidence
            quote = json.dumps(ev.get("quote"), ensure_ascii=False)
            conv = f" in conversation {ev['conversationId']}" if ev.get("conversationId") else ""
            lines.append(f"On what evidence: message {ev['messageId']}{conv} said {quote} "
                         f"(characters {ev['start']}-{ev['end']}).")
        lines.append(f"Who approved it: {self.approved_by}")
        lines.append(f"Commits: value written in {self.value_commit}; current version written "
                     f"in {self.latest_commit}.")
        lines.append("How to revoke it:")
        lines += [f"  {cmd}" for cmd in self.revoke_commands]
        return "\n".join(lines)


def explain(store: Store, tenant_id: str, target: str | FactRef, *,
            now: datetime | None = None) -> Explanation:
    """Answer who proposed a fact, on what evidence, who approved it and how to revoke it."""
    now = now or now_utc()
    if isinstance(target, str):
        target = fact_target(target)
    tenant = store.tenant(tenant_id)
    state = tenant.state()
    path = resolve_path(tenant, state, target)
    versions = tenant.history(path, state)
    if not versions:
        raise NotFoundError(f"no fact at {path} in tenant {tenant_id!r}")
    # Follow the history to the commit that wrote the current value; a restore brings
    # back the value (and its provenance) of the version it restored, byte for byte.
    value_commit: dict[tuple[int, str], Any] = {}
    events: list[dict[str, Any]] = []
    origin = versions[0][0]
    last_change: dict[str, tuple[Any, Fact]] = {}
    for commit, fact in versions:
        trailers = _git.parse_trailers(commit.message)
        op = trailers.get("Op", "-")
        key = (fact.version, fact.updated_at)
        if op == "restore":
            origin = value_commit.get(key, commit)
        elif op not in KEEP_VALUE_OPS:
            origin = commit
        value_commit[key] = origin
        last_change[op] = (commit, fact)
        events.append({"commit": str(commit.id), "op": op, "version": fact.version,
                       "status": fact.status.value, "operator": trailers.get("Operator"),
                       "reason": trailers.get("Change-Reason")})
    latest_commit, fact = versions[-1]
    renewed = last_change.get("renew")
    if renewed is not None and renewed[1].approved_by != fact.approved_by:
        renewed = None  # the renewal belongs to a value that is no longer current
    origin_trailers = _git.parse_trailers(origin.message)
    record = _record_at(tenant, origin.tree, fact.proposal_id)
    return Explanation(
        tenant_id=tenant_id, fact=fact, path=path,
        proposed_by=_proposer(fact, record, origin_trailers, origin),
        evidence=_evidence(tenant, state, fact, record),
        approved_by=_approver(fact, record, origin_trailers, renewed),
        revoke_commands=_revoke_commands(tenant_id, fact, versions),
        value_commit=str(origin.id), latest_commit=str(latest_commit.id),
        status_notes=_notes(fact, last_change, now, events[-1]), events=tuple(events),
    )


def _proposer(fact: Fact, record: Mapping[str, Any] | None, trailers: Mapping[str, str],
              commit: Any) -> str:
    if fact.source is FactSource.ADMIN_MANUAL or record is None:
        who = trailers.get("Operator") or fact.operator or "an administrator"
        why = trailers.get("Change-Reason") or fact.change_reason
        return (f"administrator {who} set it by hand ({trailers.get('Op', 'edit')}) in commit "
                f"{commit.id}" + (f", reason: {why}." if why else "."))
    extractor = record.get("proposal", {}).get("extractorVersion", "an extractor")
    kind = "stated explicitly by the subject" if fact.source is FactSource.USER_EXPLICIT \
        else "inferred"
    return (f"extractor {extractor} proposed it (proposal {fact.proposal_id}, {kind}, "
            f"confidence {fact.confidence}); committed in {commit.id}.")


def _evidence(tenant: TenantRepo, state: Any, fact: Fact, record: Mapping[str, Any] | None
              ) -> dict[str, Any] | None:
    ev = fact.evidence
    if ev is None:
        return None
    quote = (record or {}).get("evidenceQuote")
    conversation = (record or {}).get("conversationId")
    if quote is None or conversation is None:
        message = tenant.message(ev.message_id, state)
        if message is not None:
            quote = quote if quote is not None else message.text[ev.start:ev.end]
            conversation = conversation or message.conversation_id
    return {"messageId": ev.message_id, "start": ev.start, "end": ev.end, "quote": quote,
            "conversationId": conversation}


def _approver(fact: Fact, record: Mapping[str, Any] | None, trailers: Mapping[str, str],
              renewed: tuple[Any, Fact] | None) -> str:
    if fact.source is FactSource.ADMIN_MANUAL:
        return (f"no separate approval: it is an administrator's change by "
                f"{trailers.get('Operator') or fact.operator}.")
    approval = (record or {}).get("approval")
    if approval:
        text = (f"{approval.get('approvedBy')} confirmed it after the gate parked it as "
                f"{approval.get('parkedAs', 'parked')}, bound to payloadHash "
                f"{approval.get('payloadHash')}.")
    else:
        reasons = ", ".join((record or {}).get("reasons", [])) or "-"
        policy = trailers.get("Policy-Version") or (record or {}).get("policyVersion")
        text = (f"the gate committed it automatically under policy {policy} "
                f"(rules met: {reasons}).")
    if renewed is not None:
        commit, version = renewed
        text += (f" {version.approved_by} renewed it after it expired (commit {commit.id}), "
                 f"until {version.expires_at}.")
    return text


def _revoke_commands(tenant_id: str, fact: Fact, versions: list[tuple[Any, Fact]]
                     ) -> tuple[str, ...]:
    ref = FactRef.of(fact)
    spec = ref.spec
    if fact.status is FactStatus.REVOKED:
        before = versions[-2][0].id if len(versions) > 1 else None
        cmds = ["It is already revoked; recall no longer returns it."]
        if before is not None:
            cmds.append(f"To bring it back: memrepo rollback --tenant {tenant_id} "
                        f"--fact {fact.memory_id} --to {before} --apply --operator YOU "
                        f"--reason WHY")
        return tuple(cmds)
    cmds = [f"memrepo revoke --tenant {tenant_id} --fact {spec} --operator YOU --reason WHY"]
    for message_id in fact.derived_from:
        cmds.append(f"memrepo revoke --tenant {tenant_id} --message {message_id} --operator YOU"
                    f"  (revokes every fact taken from that message)")
    return tuple(cmds)


def _notes(fact: Fact, last: Mapping[str, tuple[Any, Fact]], now: datetime,
           latest: Mapping[str, Any]) -> tuple[str, ...]:
    notes = []
    if latest["op"] == "restore":
        notes.append(f"restored by {latest['operator']} in {latest['commit']} "
                     f"({latest['reason']}); the value and its provenance below are those of "
                     "the version it went back to.")
    if fact.status is FactStatus.REVOKED and "revoke" in last:
        commit, _ = last["revoke"]
        notes.append(f"revoked by {fact.operator} in {commit.id}: {fact.change_reason}.")
    elif fact.status is FactStatus.REVOKED:
        notes.append(f"revoked: {fact.change_reason}.")
    if fact.frozen and "freeze" in last:
        commit, frozen = last["freeze"]
        notes.append(f"frozen by {frozen.operator} in {commit.id} ({frozen.change_reason}); "
                     "the gate refuses every automatic change.")
    if fact.status is FactStatus.ACTIVE and fact.expires_at is not None \
            and parse_time(fact.expires_at) <= now:
        notes.append(f"expired at {fact.expires_at}; recall hides it "
                     "(`memrepo expire` offers it for renewal).")
    return tuple(notes)
