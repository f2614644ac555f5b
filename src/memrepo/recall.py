"""The read path: what a prompt builder may use, and the story behind one fact."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from . import layout
from .errors import NotFoundError
from .lifecycle import FactRef
from .proposal import Fact
from .store import Store, now_utc


def recall(store: Store, tenant_id: str, subject_id: str, *, scope: dict[str, str] | None = None,
           kind: str | None = None, now: datetime | None = None) -> list[Fact]:
    """Active, unexpired, unrevoked facts of one subject, optionally one scope or kind."""
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    state = tenant.state()
    out = [
        f for f in tenant.facts(subject_id, state)
        if f.is_live(now)
        and (kind is None or f.kind == kind)
        and (scope is None or f.scope.as_dict() == scope)
    ]
    return sorted(out, key=lambda f: (f.kind, f.normalized_key, f.scope.kind, f.scope.key))


@dataclass(frozen=True)
class VersionStory:
    """One version of a fact with the commit that wrote it and the proposal behind it."""

    fact: Fact
    commit: str
    committed_at: int
    trailers: dict[str, str]
    record: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {"fact": self.fact.to_json(), "commit": self.commit,
                "committedAt": self.committed_at, "trailers": self.trailers,
                "proposal": self.record}


def resolve_fact(store: Store, tenant_id: str, target: str | FactRef) -> str:
    """A fact path from a memoryId or a FactRef."""
    if isinstance(target, FactRef):
        return target.path
    tenant = store.tenant(tenant_id)
    path = tenant.fact_path_of(target, tenant.state())
    if path is None:
        raise NotFoundError(f"no fact with memoryId {target!r} in tenant {tenant_id!r}")
    return path


def history(store: Store, tenant_id: str, target: str | FactRef) -> list[VersionStory]:
    """Every version of one fact, oldest first, each with proposer, evidence, approver, commit."""
    from ._git import lookup_blob, parse_trailers

    path = resolve_fact(store, tenant_id, target)
    tenant = store.tenant(tenant_id)
    out = []
    for commit, fact in tenant.history(path):
        record = None
        if fact.proposal_id:
            raw = lookup_blob(tenant.repo, commit.tree, layout.proposal_path(fact.proposal_id))
            record = json.loads(raw) if raw else None
        out.append(VersionStory(fact, str(commit.id), commit.commit_time,
                                parse_trailers(commit.message), record))
    if not out:
        raise NotFoundError(f"no fact at {path} in tenant {tenant_id!r}")
    return out
