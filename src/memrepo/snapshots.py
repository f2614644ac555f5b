"""Daily snapshot tags and rollback: going back without ever rewriting ``main``.

A snapshot is an annotated tag ``snapshot/YYYY-MM-DD`` (UTC day) on the tip of
``main``. Making it is idempotent within a day: the first run of the day tags, later
runs find the tag and leave it where it is (tags never move), so a cron job can run
as often as it likes. Pruning deletes tag *refs* older than the retention; commits
are never deleted, they stay reachable from ``main``.

A rollback writes, in **one** new commit for the whole selection, the fact files as
they were at a target commit (a snapshot tag or any commit on ``main``), through the
same compare-and-swap as the gate. A restored file is the target's blob, byte for
byte, so rolling back a rollback (``--to <rollback commit>^``, or :func:`undo`) brings
back the exact files that were there before. The file's ``version`` therefore
returns to the target's; *who* restored it and why is in the commit trailers
(``Op: restore``, ``Restore-Target: <commit>``). A fact that did not exist at the
target is not deleted but marked REVOKED (a new version). Frozen facts are left
alone (unfreeze first). One commit per selection means a rollback is all-or-nothing
and is undone in one step.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal

from . import _git, layout
from .errors import InputError, NotFoundError
from .gate import MAX_ATTEMPTS, backoff
from .lifecycle import FactRef, _successor, fact_target, time_ms
from .proposal import Fact, FactStatus
from .store import GATE_AUTHOR, State, Store, TenantRepo, now_utc

SNAPSHOT_PREFIX = "snapshot/"
DEFAULT_KEEP_DAYS = 30
SNAPSHOT_AUTHOR = _git.Author("memrepo snapshot", "snapshot@memrepo.invalid")


# -- snapshots ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SnapshotResult:
    tenant_id: str
    tag: str
    commit: str
    created: bool                 # False: the day's tag existed already (left unchanged)
    pruned: tuple[str, ...]       # snapshot tags deleted by the retention

    def to_json(self) -> dict[str, Any]:
        return {"tenantId": self.tenant_id, "tag": self.tag, "commit": self.commit,
                "created": self.created, "pruned": list(self.pruned)}


def snapshot_tag(day: date) -> str:
    return f"{SNAPSHOT_PREFIX}{day.isoformat()}"


def _tag_day(name: str) -> date | None:
    try:
        return date.fromisoformat(name[len(SNAPSHOT_PREFIX):])
    except ValueError:
        return None


def list_snapshots(store: Store, tenant_id: str) -> list[_git.TagInfo]:
    """A tenant's snapshot tags, oldest first."""
    tenant = store.tenant(tenant_id)
    return [t for t in _git.list_tags(tenant.repo, SNAPSHOT_PREFIX) if _tag_day(t.name)]


def snapshot(store: Store, tenant_ids: Sequence[str] | None = None, *,
             keep_days: int = DEFAULT_KEEP_DAYS, now: datetime | None = None
             ) -> list[SnapshotResult]:
    """Tag today's ``main`` of each tenant (all by default) and prune old snapshot tags."""
    if keep_days < 0:
        raise InputError("--keep-days must be 0 or more", code="usage")
    now = now or now_utc()
    ids = list(tenant_ids) if tenant_ids else store.tenants()
    return [_snapshot_tenant(store.tenant(t), keep_days=keep_days, now=now) for t in ids]


def _snapshot_tenant(tenant: TenantRepo, *, keep_days: int, now: datetime) -> SnapshotResult:
    state = tenant.state()
    if state.main is None:
        raise NotFoundError(f"tenant {tenant.tenant_id!r} has no main branch yet")
    today = now.astimezone(UTC).date()
    name = snapshot_tag(today)
    policy = tenant.policy(state)
    message = (f"memrepo snapshot of tenant {tenant.tenant_id} on {today.isoformat()}\n\n"
               f"Main: {state.main}\nPolicy-Version: {policy.version}\n"
               f"Tenant-Id: {tenant.tenant_id}\nTime-Ms: {time_ms(now)}\n")
    info, created = _git.create_annotated_tag(tenant.repo, name, state.main, message=message,
                                              tagger=SNAPSHOT_AUTHOR,
                                              when=int(now.timestamp()))
    cutoff = today - timedelta(days=keep_days)
    pruned = []
    for tag in _git.list_tags(tenant.repo, SNAPSHOT_PREFIX):
        day = _tag_day(tag.name)
        if day is not None and day < cutoff and _git.delete_tag(tenant.repo, tag.name):
            pruned.append(tag.name)
    return SnapshotResult(tenant.tenant_id, name, str(info.target), created, tuple(pruned))


# -- rollback ----------------------------------------------------------------------------

Action = Literal["restore", "revoke", "unchanged", "frozen"]


@dataclass(frozen=True)
class FactChange:
    """One fact in a rollback plan: what is there now and what will be there after."""

    path: str
    memory_id: str
    action: Action
    old: Fact | None
    new: Fact | None
    old_blob: str | None
    new_blob: str | None

    def to_json(self) -> dict[str, Any]:
        def brief(f: Fact | None) -> dict[str, Any] | None:
            return None if f is None else {"version": f.version, "status": f.status.value,
                                           "frozen": f.frozen, "value": f.value,
                                           "expiresAt": f.expires_at}

        return {"memoryId": self.memory_id, "path": self.path, "action": self.action,
                "old": brief(self.old), "new": brief(self.new), "oldBlob": self.old_blob,
                "newBlob": self.new_blob}


@dataclass(frozen=True)
class RollbackPlan:
    tenant_id: str
    target: str                   # the full commit id rolled back to
    base: str                     # main's tip the plan was computed on
    changes: tuple[FactChange, ...]
    applied: bool
    commit: str | None            # the restore commit, when applied and anything changed

    @property
    def effective(self) -> tuple[FactChange, ...]:
        return tuple(c for c in self.changes if c.action in ("restore", "revoke"))

    def to_json(self) -> dict[str, Any]:
        return {"tenantId": self.tenant_id, "target": self.target, "base": self.base,
                "applied": self.applied, "commit": self.commit,
                "changes": [c.to_json() for c in self.changes]}


def resolve_target(tenant: TenantRepo, spec: str, state: State | None = None) -> _git.Oid:
    """The commit a TAG or COMMIT names; it must lie on ``main``'s history."""
    state = state or tenant.state()
    oid = _git.resolve_commit(tenant.repo, spec)
    if oid is None:
        raise NotFoundError(f"{spec!r} names no commit or tag in tenant {tenant.tenant_id!r}",
                            code="unknown_revision")
    if state.main is None or not _git.is_ancestor(tenant.repo, oid, state.main):
        raise InputError(f"{spec!r} ({str(oid)[:12]}) is not on main's history; rollback "
                         "only goes back to states main has been in", code="not_on_main")
    return oid


def _selected_paths(tenant: TenantRepo, state: State, target_tree: Any,
                    facts: Sequence[str | FactRef], subject: str | None) -> list[str]:
    paths: list[str] = []
    for item in facts:
        item = fact_target(item) if isinstance(item, str) else item
        if isinstance(item, FactRef):
            paths.append(item.path)
            continue
        index = layout.id_index_path(item)
        raw = (_git.lookup_blob(tenant.repo, state.main_tree, index)
               or _git.lookup_blob(tenant.repo, target_tree, index))
        if raw is None:
            raise NotFoundError(f"no fact with memoryId {item!r} in tenant "
                                f"{tenant.tenant_id!r}")
        paths.append(raw.decode("utf-8"))
    if subject is not None:
        folder = layout.subject_dir(subject)
        for tree in (state.main_tree, target_tree):
            obj = _git.lookup(tree, folder)
            if obj is not None and obj.type_str == "tree":
                paths += [p for p, _ in _git.walk_blobs(tenant.repo, obj, folder + "/")]
    return sorted(set(paths))


def _fact_of(tenant: TenantRepo, oid: _git.Oid | None) -> Fact | None:
    if oid is None:
        return None
    return Fact.model_validate(json.loads(_git.read_blob(tenant.repo, oid)))


def _plan(tenant: TenantRepo, state: State, target: _git.Oid, paths: Sequence[str],
          now: datetime, operator: str, reason: str, target_label: str
          ) -> tuple[list[FactChange], dict[str, _git.Oid | None]]:
    target_tree = _git.get_commit(tenant.repo, target).tree
    changes: list[FactChange] = []
    writes: dict[str, _git.Oid | None] = {}
    for path in paths:
        here = _git.lookup(state.main_tree, path)
        there = _git.lookup(target_tree, path)
        cur_oid = here.id if here is not None else None
        tgt_oid = there.id if there is not None else None
        old = _fact_of(tenant, cur_oid)
        either = old or _fact_of(tenant, tgt_oid)
        if either is None:
            raise NotFoundError(f"no fact at {path} now or at the target")
        mid = either.memory_id
        new: Fact | None
        action: Action
        new_oid: _git.Oid | None
        if cur_oid == tgt_oid:
            action, new, new_oid = "unchanged", old, cur_oid
        elif old is not None and old.frozen:
            action, new, new_oid = "frozen", old, cur_oid
        elif tgt_oid is not None:
            action, new, new_oid = "restore", _fact_of(tenant, tgt_oid), tgt_oid
            writes[path] = tgt_oid
            if old is None:
                assert new is not None
                writes[layout.id_index_path(new.memory_id)] = _git.write_blob(
                    tenant.repo, path.encode())
        else:
            assert old is not None
            if old.status is FactStatus.REVOKED:
                action, new, new_oid = "unchanged", old, cur_oid
            else:
                new = _successor(old, now, operator=operator, status=FactStatus.REVOKED,
                                 approved_by=None,
                                 reason=f"rollback to {target_label}: did not exist then; "
                                        f"{reason}")
                new_oid = tenant.blob(new.to_json())
                action = "revoke"
                writes[path] = new_oid
        changes.append(FactChange(path, mid, action, old, new,
                                  str(cur_oid) if cur_oid else None,
                                  str(new_oid) if new_oid else None))
    return changes, writes


def rollback(store: Store, tenant_id: str, *, to: str, facts: Sequence[str | FactRef] = (),
             subject: str | None = None, operator: str, reason: str, apply: bool = False,
             expect_main: str | None = None, now: datetime | None = None) -> RollbackPlan:
    """Plan (``apply=False``, the default) or apply a rollback of facts to ``to``.

    ``facts`` are memoryIds or FactRefs; ``subject`` adds every fact of that subject
    (present now or at the target). ``expect_main`` makes ``apply`` refuse when main
    moved since the dry run that was shown. The plan lists every selected fact with
    its action: restore (the target's file), revoke (absent at the target), unchanged,
    or frozen (skipped).
    """
    if not facts and subject is None:
        raise InputError("rollback needs --fact or --subject (there is no whole-tenant "
                         "reset)", code="usage")
    if apply and (not operator.strip() or not reason.strip()):
        raise InputError("applying a rollback needs --operator and --reason",
                         code="reason_required")
    now = now or now_utc()
    tenant = store.tenant(tenant_id)
    for attempt in range(MAX_ATTEMPTS):
        state = tenant.state()
        if expect_main is not None and str(state.main) != expect_main:
            raise InputError(f"main moved since the dry run (expected {expect_main[:12]}, now "
                             f"{str(state.main)[:12]}); look at the new dry run first",
                             code="main_moved")
        target = resolve_target(tenant, to, state)
        target_tree = _git.get_commit(tenant.repo, target).tree
        paths = _selected_paths(tenant, state, target_tree, facts, subject)
        changes, writes = _plan(tenant, state, target, paths, now, operator, reason, to)
        plan = RollbackPlan(tenant_id, str(target), str(state.main), tuple(changes), False, None)
        if not apply or not writes:
            return RollbackPlan(tenant_id, plan.target, plan.base, plan.changes, apply, None)
        effective = plan.effective
        lines = [f"restore: {len(effective)} fact(s) to {to} ({str(target)[:12]})", "", reason,
                 ""]
        for c in effective:
            assert c.new is not None
            was = f"v{c.old.version} {c.old.status.value}" if c.old else "absent"
            lines.append(f"{c.memory_id}: {was} -> v{c.new.version} {c.new.status.value}")
        lines.append("")
        trailers = [f"Memory-Id: {c.memory_id}" for c in effective]
        trailers += [f"Restore-Target: {target}", "Op: restore", "Decision: RESTORE",
                     f"Operator: {operator}", f"Change-Reason: {reason}",
                     f"Tenant-Id: {tenant_id}", f"Time-Ms: {time_ms(now)}"]
        if subject is not None:
            trailers.append(f"Subject-Id: {subject}")
        message = "\n".join(lines + trailers) + "\n"
        done = tenant.commit(state, main=writes, message=message, when=now,
                             author=GATE_AUTHOR)
        if done is not None:
            return RollbackPlan(tenant_id, plan.target, plan.base, plan.changes, True,
                                str(done[0]))
        backoff(attempt)
    raise InputError("could not roll back: lost the race too often", code="cas_exhausted")


def undo(store: Store, tenant_id: str, commit: str, *, operator: str, reason: str,
         apply: bool = False, now: datetime | None = None) -> RollbackPlan:
    """Roll the facts one commit on main changed back to its parent (e.g. undo a rollback).

    Undoing a restore commit returns its facts' files byte for byte to what they were.
    """
    tenant = store.tenant(tenant_id)
    state = tenant.state()
    oid = resolve_target(tenant, commit, state)
    target = _git.get_commit(tenant.repo, oid)
    if not target.parent_ids:
        raise InputError("the first commit has nothing before it to go back to", code="usage")
    parent = _git.get_commit(tenant.repo, target.parent_ids[0])
    paths = [p for p, _, _ in _git.diff_blobs(tenant.repo, parent.tree, target.tree)
             if p.startswith("facts/")]
    if not paths:
        raise InputError(f"commit {str(oid)[:12]} changed no fact", code="no_facts")
    refs = [_ref_for(tenant, state, p) for p in paths]
    return rollback(store, tenant_id, to=str(parent.id), facts=refs, operator=operator,
                    reason=reason, apply=apply, now=now)


def _ref_for(tenant: TenantRepo, state: State, path: str) -> str:
    fact = tenant.fact_at(path, state)
    if fact is None:
        raise NotFoundError(f"no fact at {path}")
    return fact.memory_id
