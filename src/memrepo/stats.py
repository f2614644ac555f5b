"""`memrepo stats`: how the gate has been deciding for a tenant, read from git alone.

Counts proposals by decision and reason (main holds committed records, the audit ref
everything else), the confirmation acceptance rate, replays seen, revocations, and an
estimate of false commits: automatic commits whose fact was later revoked.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pygit2

from . import _git
from .proposal import Fact, FactStatus
from .store import Store, TenantRepo

REPLAY_LOG = "memrepo-replays.log"


@dataclass
class Stats:
    proposals: int = 0
    by_decision: Counter[str] = field(default_factory=Counter)
    by_reason: Counter[str] = field(default_factory=Counter)
    by_status: Counter[str] = field(default_factory=Counter)
    invalid: int = 0
    confirmed: int = 0
    declined: int = 0
    replays: int = 0
    revoked_facts: int = 0
    auto_commits: int = 0
    auto_commits_revoked: int = 0

    @property
    def confirmation_acceptance(self) -> float | None:
        answered = self.confirmed + self.declined
        return None if not answered else self.confirmed / answered

    @property
    def false_commit_estimate(self) -> float | None:
        return None if not self.auto_commits else self.auto_commits_revoked / self.auto_commits

    def to_json(self) -> dict[str, Any]:
        return {
            "proposals": self.proposals, "byDecision": dict(self.by_decision),
            "byReason": dict(self.by_reason.most_common()), "byStatus": dict(self.by_status),
            "invalid": self.invalid, "confirmed": self.confirmed, "declined": self.declined,
            "confirmationAcceptance": self.confirmation_acceptance, "replays": self.replays,
            "revokedFacts": self.revoked_facts, "autoCommits": self.auto_commits,
            "autoCommitsRevoked": self.auto_commits_revoked,
            "falseCommitEstimate": self.false_commit_estimate,
        }


def _records(tenant: TenantRepo, tree: pygit2.Tree | None) -> list[dict[str, Any]]:
    sub = _git.lookup(tree, "proposals")
    if not isinstance(sub, pygit2.Tree):
        return []
    return [json.loads(_git.read_blob(tenant.repo, oid))
            for _, oid in _git.walk_blobs(tenant.repo, sub)]


def stats(store: Store, tenant_id: str) -> Stats:
    tenant = store.tenant(tenant_id)
    state = tenant.state()
    out = Stats()
    committed = _records(tenant, state.main_tree)
    others = _records(tenant, state.audit_tree)
    # A proposal's first decision lives in its audit record when it was parked first;
    # a committed record only says how it ended (e.g. confirmed_by_subject).
    first_seen = {r["proposalId"]: r for r in committed}
    first_seen.update({r["proposalId"]: r for r in others})
    for record in first_seen.values():
        out.proposals += 1
        out.by_decision[record["decision"]] += 1
        out.by_reason.update(record.get("reasons", []))
        out.by_status[record.get("status", "?")] += 1
    out.confirmed = sum(1 for r in committed if r.get("approval"))
    out.declined = sum(1 for r in others if r.get("status") == "declined")
    invalid = _git.lookup(state.audit_tree, "invalid")
    if isinstance(invalid, pygit2.Tree):
        out.invalid = sum(1 for _ in _git.walk_blobs(tenant.repo, invalid))
    auto = {r["proposalId"] for r in committed if not r.get("approval")}
    out.auto_commits = len(auto)
    for _, fact in tenant.all_facts(state):
        if fact.status is FactStatus.REVOKED:
            out.revoked_facts += 1
    for fact in _revoked_versions(tenant):
        if fact.proposal_id in auto:
            out.auto_commits_revoked += 1
    log = tenant.path / REPLAY_LOG
    if log.exists():
        with log.open("rb") as lines:
            out.replays = sum(1 for _ in lines)
    return out


def _revoked_versions(tenant: TenantRepo) -> list[Fact]:
    """The version each revocation retired (the fact as it stood before being revoked)."""
    out = []
    for path, fact in tenant.all_facts(tenant.state()):
        if fact.status is not FactStatus.REVOKED:
            continue
        versions = tenant.history(path)
        for (_, before), (_, after) in zip(versions, versions[1:], strict=False):
            if after.status is FactStatus.REVOKED and before.status is FactStatus.ACTIVE:
                out.append(before)
    return out


def note_replay(tenant: TenantRepo, proposal_id: str) -> None:
    """Count a replay without a commit: replays must stay read-only on the repository."""
    with (tenant.path / REPLAY_LOG).open("a", encoding="ascii") as log:
        log.write(proposal_id + "\n")
