"""Bulk changes as a review: import onto a branch, look, approve, merge with re-decisions.

A migration of many proposals should not land on ``main`` one unseen commit after
another. :func:`import_proposals` runs the gate's decision (``assess``, no commit to
``main``) over all of them, scans for conflicts with ``main`` and within the file, and
writes the proposals the gate would commit to ``refs/heads/review/NAME``: one commit
per proposal, in exactly the format of a gate commit, so the branch can be pushed to
any git host and read there as a merge request (the pre-receive hook keeps ``main``
guarded while it is). Everything else is listed with its reason and left out.

An approval binds the branch tip *and* the set of payloadHashes on it
(``refs/memrepo/approvals/NAME``). :func:`merge` refuses if either differs, then
replays the proposals onto ``main`` in order, each its own commit, deciding each again
on the current ``main`` (published in batches, like the gate's): a fact that changed
since the review was made is not overwritten; its proposal is parked (CONFIRM_REPLACE
or CONFLICT) and reported.
Import findings and the merge's outcome are kept on ``refs/memrepo/reviews/NAME``.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pygit2

from . import _git, canonical, gate, groupcommit, layout
from .errors import ApprovalError, InputError, NotFoundError, StoreError
from .proposal import (
    PARKED,
    Decision,
    DecisionKind,
    Fact,
    MemoryProposal,
    format_time,
    parse_proposal,
)
from .store import GATE_AUTHOR, State, Store, TenantRepo, now_utc

BRANCH_PREFIX = "refs/heads/review/"
META_PREFIX = "refs/memrepo/reviews/"
APPROVAL_PREFIX = "refs/memrepo/approvals/"
META_FILE = "review.json"
MERGE_FILE = "merge.json"
APPROVAL_FILE = "approval.json"
MAX_ATTEMPTS = gate.MAX_ATTEMPTS

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def check_name(name: str) -> str:
    """A review name that is safe as one ref component."""
    if not _NAME.fullmatch(name) or ".." in name or name.endswith(".lock"):
        raise InputError(f"review name {name!r}: use letters, digits, '.', '_', '-' "
                         "(start with a letter or digit, at most 100)", code="bad_review_name")
    return name


def operator_for(name: str) -> str:
    return f"review/{name}"


def describe(p: MemoryProposal) -> str:
    value = json.dumps(p.value, ensure_ascii=False)
    if len(value) > 48:
        value = value[:45] + "…"
    return (f"{p.subject_id} {p.kind}/{p.normalized_key} [{p.scope.kind}:{p.scope.key}] "
            f"= {value}")


@dataclass(frozen=True)
class Finding:
    """Why one proposal of an import was left off the branch (or what to look at)."""

    code: str
    line: int | None
    detail: str
    proposal_id: str | None = None
    memory_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "line": self.line, "detail": self.detail,
                "proposalId": self.proposal_id, "memoryId": self.memory_id}


@dataclass(frozen=True)
class Entry:
    """One proposal on a review branch: the commit that carries it and its record."""

    commit: str
    proposal: MemoryProposal
    record: dict[str, Any]
    line: int | None = None

    @property
    def payload_hash(self) -> str:
        return self.proposal.payload_hash

    @property
    def memory_id(self) -> str:
        return str(self.record["memoryId"])

    @property
    def fact_path(self) -> str:
        return str(self.record["factPath"])

    def to_json(self) -> dict[str, Any]:
        return {"commit": self.commit, "line": self.line, "proposalId": self.proposal.id,
                "payloadHash": self.payload_hash, "memoryId": self.memory_id,
                "summary": describe(self.proposal)}


@dataclass(frozen=True)
class ImportReport:
    name: str
    tenant_id: str
    base: str | None
    tip: str | None
    entries: tuple[Entry, ...]
    findings: tuple[Finding, ...]
    total: int

    @property
    def branch(self) -> str:
        return BRANCH_PREFIX + self.name

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "tenantId": self.tenant_id, "branch": self.branch,
                "base": self.base, "tip": self.tip, "total": self.total,
                "entries": [e.to_json() for e in self.entries],
                "findings": [f.to_json() for f in self.findings]}


class _BranchWriter(TenantRepo):
    """A tenant whose ``commit`` builds a gate-format commit on a branch tip and
    publishes nothing, so :func:`gate.commit_fact` writes review commits unchanged."""

    def __init__(self, base: TenantRepo) -> None:
        self.__dict__.update(base.__dict__)  # same repository, caches and all

    def commit(self, state: State, *, main: Mapping[str, _git.Oid | None] | None = None,
               audit: Mapping[str, _git.Oid | None] | None = None, message: str,
               author: _git.Author = GATE_AUTHOR, when: datetime | None = None,
               ) -> tuple[_git.Oid | None, _git.Oid | None] | None:
        stamp = int((when or now_utc()).timestamp())
        tree = _git.edit_tree(self.repo, state.main_tree, main or {})
        parents = [state.main] if state.main is not None else []
        new = _git.create_commit(self.repo, tree=tree, parents=parents, message=message,
                                 author=author, when=stamp)
        return (new, state.audit)


def import_proposals(store: Store, tenant_id: str, items: Iterable[tuple[int | None, Any]],
                     *, name: str, now: datetime | None = None,
                     source: str | None = None) -> ImportReport:
    """Decide every proposal against ``main`` and put the committable ones on a branch.

    ``items`` are (line number, raw proposal) pairs; a raw proposal may be JSON text or
    a parsed object. Nothing is written to ``main`` or the audit ref. A proposal is
    held back (and listed) when it is invalid, for another tenant, already decided,
    in conflict with another proposal of the file for the same fact, or when the gate
    would not commit it on ``main`` now (a different current value, a frozen target,
    a reason to ask, a reason to reject).
    """
    check_name(name)
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    branch = BRANCH_PREFIX + name
    if _git.resolve(tenant.repo, branch) is not None or \
            _git.resolve(tenant.repo, META_PREFIX + name) is not None:
        raise InputError(f"review {name!r} exists already in tenant {tenant_id!r}",
                         code="review_exists")
    findings: list[Finding] = []
    parsed: list[tuple[int | None, MemoryProposal, str]] = []
    total = 0
    for line, raw in items:
        total += 1
        try:
            p = parse_proposal(raw)
        except InputError as exc:
            findings.append(Finding("invalid_proposal", line, f"{exc.message} [{exc.code}]"))
            continue
        if p.tenant_id != tenant_id:
            findings.append(Finding("wrong_tenant", line, f"proposal is for tenant "
                                    f"{p.tenant_id!r}", p.id))
            continue
        scope = p.scope.as_dict()
        parsed.append((line, p, layout.memory_id(p.tenant_id, p.subject_id, scope, p.kind,
                                                 p.normalized_key)))

    # Conflicts inside the file: one fact, several values -> none of them is applied.
    by_memory: dict[str, list[tuple[int | None, MemoryProposal]]] = {}
    for line, p, mid in parsed:
        by_memory.setdefault(mid, []).append((line, p))
    candidates: list[tuple[int | None, MemoryProposal, str]] = []
    for line, p, mid in parsed:
        group = by_memory[mid]
        values = {canonical.jcs(q.value) for _, q in group}
        if len(values) > 1:
            others = ", ".join(f"{json.dumps(q.value, ensure_ascii=False)} (line {n})"
                               for n, q in group if q is not p)
            findings.append(Finding("conflict_in_file", line,
                                    f"{describe(p)} conflicts with {others}", p.id, mid))
        elif group[0][1] is not p:
            findings.append(Finding("duplicate_in_file", line,
                                    f"{describe(p)} repeats line {group[0][0]}", p.id, mid))
        else:
            candidates.append((line, p, mid))

    # Conflicts with main, and the gate's decision on main as it is now.
    state = tenant.state()
    policy = tenant.policy(state)
    approvable: list[tuple[int | None, gate.Assessment]] = []
    for line, p, mid in candidates:
        seen = tenant.record(p.id, state)
        if seen is not None:
            findings.append(Finding("already_decided", line, f"{describe(p)}: proposal was "
                                    f"decided before ({seen.data.get('decision')}, "
                                    f"{seen.data.get('status')})", p.id, mid))
            continue
        a = gate.assess(tenant, state, p, now, policy=policy)
        current = a.current
        held: list[str] = []
        if current is not None and current.frozen:
            findings.append(Finding("frozen_target", line, f"{describe(p)}: the fact is frozen "
                                    f"(v{current.version})", p.id, mid))
            held.append("frozen")
        elif current is not None and current.is_live(now) and current.value != p.value:
            findings.append(Finding(
                "differs_from_main", line,
                f"{describe(p)}: main has {json.dumps(current.value, ensure_ascii=False)} "
                f"(v{current.version})", p.id, mid))
            held.append("differs")
        if a.verdict.decision is DecisionKind.COMMIT:
            approvable.append((line, a))
        elif not held:
            findings.append(Finding("not_approvable", line,
                                    f"{describe(p)}: the gate decides {a.verdict.decision.value}"
                                    f" ({', '.join(a.verdict.reasons)})", p.id, mid))

    # One gate-format commit per approvable proposal, on top of main's tip, staged in
    # memory and written as one pack with the branch and its record.
    writer = _BranchWriter(tenant)
    tip = state.main
    entries: list[Entry] = []
    operator = operator_for(name)
    with tenant.staged() as batch:
        for line, a in approvable:
            branch_state = State(tip, state.audit, _git.tree_of(tenant.repo, tip),
                                 state.audit_tree)
            done = gate.commit_fact(writer, branch_state, a, now, reasons=a.verdict.reasons,
                                    operator=operator)
            assert done is not None and done.commit is not None
            tip = pygit2.Oid(hex=done.commit)
            record = gate.proposal_record(a, now, decision=DecisionKind.COMMIT,
                                          reasons=a.verdict.reasons, status="committed",
                                          version=done.version)
            entries.append(Entry(done.commit, a.proposal, record, line))

        meta = {
            "name": name, "tenantId": tenant_id, "branch": branch, "source": source,
            "createdAt": format_time(now), "base": _hex(state.main), "tip": _hex(tip),
            "total": total, "entries": [e.to_json() for e in entries],
            "findings": [f.to_json() for f in findings],
        }
        message = (f"review {name}: {len(entries)} proposal(s), {len(findings)} finding(s)"
                   f"\n\nReview: {name}\nReview-Base: {_hex(state.main)}\n"
                   f"Review-Tip: {_hex(tip)}\nOp: review-import\nOperator: {operator}\n")
        meta_commit = _meta_commit(tenant, None, {META_FILE: meta}, message, now)
        assert tip is not None
        if not batch.publish_refs({branch: (None, tip), META_PREFIX + name: (None, meta_commit)}):
            raise InputError(f"review {name!r} was created by someone else meanwhile",
                             code="review_exists")
    return ImportReport(name, tenant_id, _hex(state.main), _hex(tip), tuple(entries),
                        tuple(findings), total)


def _hex(oid: _git.Oid | None) -> str | None:
    return None if oid is None else str(oid)


def _meta_commit(tenant: TenantRepo, parent: _git.Oid | None, files: Mapping[str, Any],
                 message: str, now: datetime) -> _git.Oid:
    base = _git.tree_of(tenant.repo, parent)
    tree = _git.edit_tree(tenant.repo, base, {path: tenant.blob(value)
                                               for path, value in files.items()})
    return _git.create_commit(tenant.repo, tree=tree, parents=[parent] if parent else [],
                              message=message, author=GATE_AUTHOR, when=int(now.timestamp()))


# -- reading a review -------------------------------------------------------------------


@dataclass(frozen=True)
class Review:
    """A review branch with what was recorded about it."""

    name: str
    tip: _git.Oid
    meta: dict[str, Any] | None
    approval: dict[str, Any] | None
    merged: dict[str, Any] | None
    meta_commit: _git.Oid | None = None
    approval_commit: _git.Oid | None = None
    fork_point: _git.Oid | None = None

    @property
    def base(self) -> _git.Oid | None:
        """Where the branch left main: as recorded at import, else the merge base (a
        branch pushed from elsewhere has no import record)."""
        base = (self.meta or {}).get("base")
        return pygit2.Oid(hex=base) if base else self.fork_point

    @property
    def status(self) -> str:
        if self.merged is not None:
            return "merged"
        if self.approval is None:
            return "open"
        return "approved" if self.approval.get("tip") == str(self.tip) else "approval-stale"


def _json_at(tenant: TenantRepo, commit: _git.Oid | None, path: str) -> dict[str, Any] | None:
    data = _git.lookup_blob(tenant.repo, _git.tree_of(tenant.repo, commit), path)
    return None if data is None else json.loads(data)


def load(tenant: TenantRepo, name: str) -> Review:
    check_name(name)
    tip = _git.resolve(tenant.repo, BRANCH_PREFIX + name)
    if tip is None:
        raise NotFoundError(f"no review {name!r} in tenant {tenant.tenant_id!r}",
                            code="unknown_review")
    meta_commit = _git.resolve(tenant.repo, META_PREFIX + name)
    approval_commit = _git.resolve(tenant.repo, APPROVAL_PREFIX + name)
    main = _git.resolve(tenant.repo, layout.MAIN_REF)
    fork = tenant.repo.merge_base(main, tip) if main is not None else None
    return Review(name, tip, _json_at(tenant, meta_commit, META_FILE),
                  _json_at(tenant, approval_commit, APPROVAL_FILE),
                  _json_at(tenant, meta_commit, MERGE_FILE), meta_commit, approval_commit,
                  fork)


def reviews(store: Store, tenant_id: str) -> list[Review]:
    tenant = store.tenant(tenant_id)
    names = sorted(ref[len(BRANCH_PREFIX):] for ref in tenant.repo.references
                   if ref.startswith(BRANCH_PREFIX))
    return [load(tenant, n) for n in names if _NAME.fullmatch(n)]


def entries(tenant: TenantRepo, review: Review) -> list[Entry]:
    """The proposals on the branch, oldest first, read from the commits themselves."""
    base = review.base
    if base is not None and not _git.is_ancestor(tenant.repo, base, review.tip):
        raise InputError(f"review/{review.name} does not start from its recorded base "
                         f"{base}; it was rewritten", code="review_rewritten")
    lines = {e["commit"]: e.get("line") for e in (review.meta or {}).get("entries", [])}
    out: list[Entry] = []
    for commit in _git.first_parent_chain(tenant.repo, review.tip, base):
        trailers = dict(_git.trailer_lines(commit.message))
        pid = trailers.get("Proposal-Id", "")
        try:
            path = layout.proposal_path(pid)
        except ValueError:
            raise InputError(f"commit {commit.id} on review/{review.name} carries no "
                             "proposal", code="review_invalid") from None
        data = _git.lookup_blob(tenant.repo, commit.tree, path)
        if data is None:
            raise InputError(f"commit {commit.id} on review/{review.name} has no proposal "
                             "record", code="review_invalid")
        record = json.loads(data)
        proposal = MemoryProposal.model_validate(record["proposal"])
        out.append(Entry(str(commit.id), proposal, record, lines.get(str(commit.id))))
    out.reverse()
    return out


def payload_set(items: Sequence[Entry]) -> list[str]:
    return sorted(e.payload_hash for e in items)


@dataclass(frozen=True)
class Change:
    """One line of ``review show``: what merging this entry would do to main now."""

    op: str                 # "+" new fact, "~" replaces a value, "=" same value again
    entry: Entry
    main: Fact | None
    changed_since_review: bool

    def to_json(self) -> dict[str, Any]:
        return {"op": self.op, **self.entry.to_json(),
                "main": None if self.main is None else self.main.to_json(),
                "changedSinceReview": self.changed_since_review}


@dataclass(frozen=True)
class ReviewView:
    review: Review
    main: str | None
    main_ahead: int
    changes: tuple[Change, ...]
    findings: tuple[dict[str, Any], ...]
    patch: str = ""

    def to_json(self) -> dict[str, Any]:
        r = self.review
        return {"name": r.name, "status": r.status, "tip": str(r.tip),
                "base": None if r.base is None else str(r.base), "main": self.main,
                "mainAhead": self.main_ahead, "approval": r.approval, "merged": r.merged,
                "changes": [c.to_json() for c in self.changes],
                "findings": list(self.findings)}


def show(store: Store, tenant_id: str, name: str, *, patch: bool = False) -> ReviewView:
    """The review as a diff against ``main`` as it is now."""
    tenant = store.tenant(tenant_id)
    review = load(tenant, name)
    state = tenant.state()
    ahead = 0
    if review.base is not None:
        ahead = sum(1 for _ in _git.first_parent_chain(tenant.repo, state.main, review.base))
    changes: list[Change] = []
    chunks: list[str] = []
    for e in entries(tenant, review):
        current = tenant.fact_at(e.fact_path, state)
        if current is None or current.status.value != "ACTIVE":
            op = "+"
        elif current.value == e.proposal.value:
            op = "="
        else:
            op = "~"
        changes.append(Change(op, e, current, _changed_since(e.record.get("base"), current)))
        if patch:
            new = _git.lookup_blob(tenant.repo, _git.tree_of(tenant.repo,
                                                             pygit2.Oid(hex=e.commit)),
                                   e.fact_path) or b""
            old = _git.lookup_blob(tenant.repo, state.main_tree, e.fact_path) or b""
            chunks.extend(difflib.unified_diff(
                old.decode().splitlines(keepends=True), new.decode().splitlines(keepends=True),
                fromfile=f"main:{e.fact_path}" if old else "/dev/null",
                tofile=f"review/{name}:{e.fact_path}"))
    return ReviewView(review, _hex(state.main), ahead, tuple(changes),
                      tuple((review.meta or {}).get("findings", [])), "".join(chunks))


def _changed_since(base: Mapping[str, Any] | None, current: Fact | None) -> bool:
    """Whether the fact on main differs from the one the review was decided against."""
    if base is None:
        return current is not None
    if current is None:
        return True
    now = {"version": current.version, "payloadHash": current.payload_hash,
           "value": current.value, "status": current.status.value}
    return any(base.get(k) != v for k, v in now.items())


# -- approving and merging -----------------------------------------------------------


def approve(store: Store, tenant_id: str, name: str, *, approver: str,
            now: datetime | None = None) -> dict[str, Any]:
    """Approve the branch as it is: its tip and its set of payloadHashes.

    Every commit on the branch is first checked as the pre-receive hook checks a push
    to main, so an approval cannot cover a commit someone edited by hand.
    """
    from .hooks import check_history

    if not approver.strip():
        raise InputError("an approval needs an approver", code="approver_required")
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    review = load(tenant, name)
    if review.merged is not None:
        raise InputError(f"review {name!r} is merged already", code="already_merged")
    items = entries(tenant, review)
    refusals = check_history(tenant, _hex(review.base), str(review.tip),
                             ref=BRANCH_PREFIX + name)
    if refusals:
        raise ApprovalError(f"review/{name} cannot be approved: {refusals[0]}",
                            code="review_invalid")
    hashes = payload_set(items)
    approval = {
        "review": name, "tenantId": tenant_id, "branch": BRANCH_PREFIX + name,
        "base": _hex(review.base), "tip": str(review.tip), "payloadHashes": hashes,
        "payloadSet": canonical.sha256_hex(canonical.jcs(hashes)),
        "approvedBy": approver, "approvedAt": format_time(now),
    }
    message = (f"approve review {name} at {str(review.tip)[:12]} ({len(hashes)} proposal(s))"
               f"\n\nReview: {name}\nReview-Tip: {review.tip}\n"
               f"Payload-Set: {approval['payloadSet']}\nApproved-By: {approver}\n"
               f"Op: review-approve\nOperator: {approver}\n")
    commit = _meta_commit(tenant, review.approval_commit, {APPROVAL_FILE: approval}, message,
                          now)
    if not _git.compare_and_swap(
            tenant.repo, {APPROVAL_PREFIX + name: (review.approval_commit, commit)},
            message=f"memrepo: approve review {name}",
            verify={BRANCH_PREFIX + name: review.tip}):
        raise ApprovalError(f"review/{name} or its approval moved while approving; "
                            "look again and approve again", code="approval_stale")
    return approval


@dataclass(frozen=True)
class MergeResult:
    entry: Entry
    decision: Decision

    def to_json(self) -> dict[str, Any]:
        return {**self.entry.to_json(), "decision": self.decision.decision.value,
                "reasons": list(self.decision.reasons), "version": self.decision.version,
                "mainCommit": self.decision.commit}


@dataclass(frozen=True)
class MergeReport:
    name: str
    main_before: str | None
    main_after: str | None
    results: tuple[MergeResult, ...] = field(default=())

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.results:
            out[r.decision.decision.value] = out.get(r.decision.decision.value, 0) + 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "mainBefore": self.main_before,
                "mainAfter": self.main_after, "counts": self.counts(),
                "results": [r.to_json() for r in self.results]}


def merge(store: Store, tenant_id: str, name: str, *, now: datetime | None = None,
          progress: Callable[[int, int], None] | None = None) -> MergeReport:
    """Replay an approved review onto ``main``, re-deciding every proposal.

    Refuses (ApprovalError) unless the approval names the branch's current tip and
    exactly its payloadHashes. Each proposal is then decided on ``main`` as it is at
    that moment, one after another, and becomes its own commit; one whose fact changed
    since the review was made, or that the gate would no longer commit, is parked or
    rejected on the audit ref instead, and reported. The commits are published the way
    the gate publishes a batch (:mod:`memrepo.groupcommit`): up to ``MAX_BATCH`` at a
    time, as one pack and one compare-and-swap, taking turns with the gate's batches; a
    batch that loses its compare-and-swap is decided again on the new ``main``.
    ``progress(done, total)`` is called after each batch.
    """
    tenant = store.tenant(tenant_id)
    review = load(tenant, name)
    if review.merged is not None:
        raise InputError(f"review {name!r} is merged already", code="already_merged")
    approval = review.approval
    if approval is None:
        raise ApprovalError(f"review {name!r} is not approved "
                            f"(memrepo review approve {name} --approver ...)",
                            code="not_approved")
    if approval.get("tip") != str(review.tip):
        raise ApprovalError(f"review/{name} moved since it was approved (approved "
                            f"{str(approval.get('tip'))[:12]}, now {str(review.tip)[:12]}); "
                            "look at it again and approve again", code="approval_stale")
    items = entries(tenant, review)
    if payload_set(items) != sorted(approval.get("payloadHashes", [])):
        raise ApprovalError(f"review/{name} does not carry the payloadHashes that were "
                            "approved", code="approval_mismatch")
    before = tenant.state().main
    results: list[MergeResult] = []
    for start in range(0, len(items), groupcommit.MAX_BATCH):
        chunk = items[start:start + groupcommit.MAX_BATCH]
        results += _merge_batch(tenant, chunk, name, approval, now)
        if progress is not None:
            progress(len(results), len(items))
    moment = now or now_utc()
    report = MergeReport(name, _hex(before), _hex(tenant.state().main), tuple(results))
    _record_merge(tenant, review, report, moment)
    return report


def _merge_batch(tenant: TenantRepo, chunk: Sequence[Entry], name: str,
                 approval: Mapping[str, Any], now: datetime | None) -> list[MergeResult]:
    for attempt in range(MAX_ATTEMPTS):
        with groupcommit.exclusive(tenant.path), tenant.staged() as batch:
            results = [MergeResult(e, _merge_one(tenant, e, name, approval, now))
                       for e in chunk]
            if batch.publish():
                return results
        gate.backoff(attempt)
    return [MergeResult(e, gate.lost_race(e.proposal.id, e.proposal.payload_hash))
            for e in chunk]


def _merge_one(tenant: TenantRepo, e: Entry, name: str, approval: Mapping[str, Any],
               now: datetime | None) -> Decision:
    """One entry, decided on the staged batch's tip (a replay check, then assess)."""
    p = e.proposal
    operator = operator_for(name)
    moment = now or now_utc()
    state = tenant.state()
    seen = tenant.record(p.id, state)
    if seen is not None:
        return gate.replay(seen.data, p)
    a = gate.assess(tenant, state, p, moment)
    decision, reasons = a.verdict.decision, a.verdict.reasons
    if decision is DecisionKind.COMMIT and _changed_since(e.record.get("base"), a.current):
        decision, reasons = DecisionKind.CONFLICT, ("fact_changed_since_review",)
    if decision is DecisionKind.COMMIT:
        bound = {"approvedBy": approval["approvedBy"], "approvedAt": approval["approvedAt"],
                 "payloadHash": p.payload_hash, "review": name, "reviewTip": approval["tip"]}
        done = gate.commit_fact(tenant, state, a, moment,
                                reasons=(*reasons, "approved_in_review"),
                                operator=operator, approval=bound)
    else:
        done = _hold(tenant, state, a, decision, (*reasons, "from_review"), moment, operator)
    if done is None:  # only if the state was not the batch's tip: a bug
        raise StoreError("a staged merge decision was refused", code="batch_inconsistent")
    return done


def _hold(tenant: TenantRepo, state: State, a: gate.Assessment, decision: DecisionKind,
          reasons: tuple[str, ...], now: datetime, operator: str) -> Decision | None:
    """Park or reject on the audit ref, exactly as the gate records such a decision."""
    pending = decision in PARKED or decision is DecisionKind.CONFLICT
    status = "pending" if pending else "rejected"
    record = gate.proposal_record(a, now, decision=decision, reasons=reasons, status=status)
    blob = tenant.blob(record)
    changes = {layout.proposal_path(a.proposal.id): blob}
    if pending:
        changes[layout.pending_path(a.memory_id, a.proposal.id)] = blob
    message = (f"{decision.value.lower()}: {describe(a.proposal)}\n\n"
               f"Reasons: {', '.join(reasons)}\n\n"
               + gate.trailers(a, decision=decision, operator=operator, version=None))
    if tenant.commit(state, audit=changes, message=message, when=now) is None:
        return None
    return Decision(decision=decision, reasons=reasons, proposal_id=a.proposal.id,
                    payload_hash=a.proposal.payload_hash, memory_id=a.memory_id,
                    policy_version=a.policy.version)


def _record_merge(tenant: TenantRepo, review: Review, report: MergeReport,
                  now: datetime) -> None:
    body = {"mergedAt": format_time(now), **report.to_json()}
    parent = review.meta_commit
    for _ in range(MAX_ATTEMPTS):
        message = (f"merge review {review.name}: "
                   + ", ".join(f"{k} {v}" for k, v in sorted(report.counts().items()))
                   + f"\n\nReview: {review.name}\nReview-Tip: {review.tip}\n"
                   f"Op: review-merge\nOperator: {operator_for(review.name)}\n")
        commit = _meta_commit(tenant, parent, {MERGE_FILE: body}, message, now)
        if _git.compare_and_swap(tenant.repo, {META_PREFIX + review.name: (parent, commit)},
                                 message=f"memrepo: merge review {review.name}"):
            return
        parent = _git.resolve(tenant.repo, META_PREFIX + review.name)
    raise StoreError(f"could not record the merge of review {review.name}",
                     code="cas_exhausted")
