"""Events derived from main's commits, the consumer protocol, and crash-safe resumption."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from memrepo import _git, events, layout, projections
from memrepo.errors import ConcurrencyError, StoreError
from memrepo.events import Batch
from memrepo.proposal import Fact, FactSource, FactStatus, Scope
from memrepo.store import Store, TenantRepo

GLOBAL = {"kind": "global", "key": "default"}
STAMP = "2026-10-14T09:00:00Z"


# -- a fast writer of fact commits (the same files admin_set writes, without its checks) ----


@dataclass(frozen=True)
class Change:
    """Set (or, with revoke/delete, end) one fact of one subject."""

    subject: str
    key: str
    value: Any = None
    kind: str = "preference"
    revoke: bool = False
    delete: bool = False
    expires: str | None = None
    scope: dict[str, str] = field(default_factory=lambda: dict(GLOBAL))


def commit_facts(tenant: TenantRepo, changes: Sequence[Change], message: str = "edit") -> str:
    """One commit on main writing every change; returns its id."""
    state = tenant.state()
    main: dict[str, _git.Oid | None] = {}
    for c in changes:
        path = layout.fact_path(c.subject, c.scope, c.kind, c.key)
        current = tenant.fact_at(path, state)
        if c.delete:
            main[path] = None
            continue
        mid = layout.memory_id(tenant.tenant_id, c.subject, c.scope, c.kind, c.key)
        if c.revoke:
            assert current is not None
            fact = current.model_copy(update={"version": current.version + 1,
                                              "status": FactStatus.REVOKED})
        else:
            fact = Fact(memory_id=mid, version=current.version + 1 if current else 1,
                        tenant_id=tenant.tenant_id, subject_id=c.subject,
                        scope=Scope(**c.scope), kind=c.kind, normalized_key=c.key,
                        value=c.value, source=FactSource.ADMIN_MANUAL, created_at=STAMP,
                        updated_at=STAMP, expires_at=c.expires, operator="test")
        main[path] = tenant.blob(fact.to_json())
    done = tenant.commit(state, main=main, message=f"{message}\n\nOp: edit\nOperator: test\n")
    assert done is not None and done[0] is not None
    return str(done[0])


WORDS = ["pnpm", "neovim", "emacs", "tea", "coffee", "metric", "北京", "上海", "绿茶",
         "简洁", "vegetarian", "素食", "espresso", "dark mode", "東京"]
KEYS = ["package_manager", "editor", "drink", "units", "reply_style", "diet", "city"]


def generate_history(tenant: TenantRepo, n_events: int, *, seed: int = 7) -> int:
    """Commits writing about ``n_events`` fact versions: creates, updates, revocations,
    several facts per commit, and commits that change no fact. Returns the event count."""
    rng = random.Random(seed)
    live: dict[tuple[str, str], bool] = {}
    written = 0
    while written < n_events:
        roll = rng.random()
        if roll < 0.04:
            policy = tenant.blob({"note": f"policy edit {written}"})
            state = tenant.state()
            assert tenant.commit(state, main={"notes/policy-note.json": policy},
                                 message="note\n\nOp: note\n")
            continue
        size = 1 if roll < 0.75 else rng.randint(2, 6)
        changes: list[Change] = []
        seen: set[tuple[str, str]] = set()
        for _ in range(size):
            slot = (f"u{rng.randint(1, 25)}", rng.choice(KEYS))
            if slot in seen:
                continue
            seen.add(slot)
            if live.get(slot) and rng.random() < 0.2:
                changes.append(Change(slot[0], slot[1], revoke=True))
                live[slot] = False
            else:
                value = " ".join(rng.sample(WORDS, rng.randint(1, 3)))
                expires = rng.choice([None, None, None, "2020-01-01T00:00:00Z",
                                      "2099-01-01T00:00:00Z"])
                changes.append(Change(slot[0], slot[1], value, expires=expires))
                live[slot] = True
        commit_facts(tenant, changes, message=f"batch {written}")
        written += len(changes)
    return written


# -- events -----------------------------------------------------------------------------


def test_a_commit_yields_one_event_per_changed_fact(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    c1 = commit_facts(tenant, [Change("u1", "editor", "neovim"), Change("u1", "drink", "tea")])
    c2 = commit_facts(tenant, [Change("u1", "editor", "emacs"),
                               Change("u1", "drink", revoke=True),
                               Change("u2", "units", "metric")])
    c3 = commit_facts(tenant, [Change("u2", "units", delete=True)])
    got = [(e.commit, e.op, e.version, e.fact["value"] if e.fact else None, e.key)
           for e in events.events_between(tenant, None)]
    mid = {k: layout.memory_id("t1", s, GLOBAL, "preference", k)
           for s, k in [("u1", "editor"), ("u1", "drink"), ("u2", "units")]}
    assert sorted(got) == sorted([
        (c1, "create", 1, "neovim", f"{mid['editor']}:1"),
        (c1, "create", 1, "tea", f"{mid['drink']}:1"),
        (c2, "update", 2, "emacs", f"{mid['editor']}:2"),
        (c2, "revoke", 2, "tea", f"{mid['drink']}:2"),
        (c2, "create", 1, "metric", f"{mid['units']}:1"),
        (c3, "delete", 2, None, f"{mid['units']}:2"),   # a tombstone version
    ])


def test_events_are_exactly_the_fact_versions_in_history(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    written = generate_history(tenant, 120, seed=3)
    evs = list(events.events_between(tenant, None))
    assert len(evs) == written
    assert len({e.key for e in evs}) == written                 # no duplicate, none invented
    by_path: dict[str, list[int]] = {}
    for e in evs:
        by_path.setdefault(e.path, []).append(e.version)
    for path, versions in by_path.items():                     # per fact: 1, 2, 3, … in order
        assert versions == list(range(1, len(versions) + 1))
        history = tenant.history(path)
        assert [f.version for _, f in history] == versions


def test_a_batch_never_splits_a_commit(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    generate_history(tenant, 60, seed=5)
    tip = tenant.state().main
    assert tip is not None
    seen: list[str] = []
    since = None
    for batch in events.batches(tenant, None, tip, batch_size=4):
        assert batch.since == since
        assert {e.commit for e in batch.events} <= set(batch.commits)
        assert batch.until == batch.commits[-1]
        seen.extend(batch.commits)
        since = batch.until
    chain = [str(c.id) for c in _git.first_parent_chain(tenant.repo, tip)]
    assert seen == list(reversed(chain))


# -- the consumer protocol -----------------------------------------------------------------


class DictConsumer:
    """A consumer whose effects and position live in memory; may fail on purpose."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.name = "test-dict"
        self.pos: str | None = None
        self.versions: dict[str, int] = {}
        self.effects: list[str] = []       # memoryId:version, once per real change
        self.deliveries = 0
        self.fail_after = fail_after

    def position(self) -> str | None:
        return self.pos

    def apply(self, batch: Batch) -> None:
        if batch.since != self.pos:
            raise events.position_moved(self.name, batch.since, self.pos)
        for ev in batch.events:
            self.deliveries += 1
            if self.fail_after is not None and self.deliveries > self.fail_after:
                self.fail_after = None
                raise RuntimeError("killed mid-batch")
            if self.versions.get(ev.memory_id, 0) >= ev.version:
                continue
            self.versions[ev.memory_id] = ev.version
            self.effects.append(ev.key)
        self.pos = batch.until


def test_at_least_once_delivery_exactly_once_effect(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    written = generate_history(tenant, 80, seed=11)
    consumer = DictConsumer(fail_after=30)
    with pytest.raises(RuntimeError):
        events.sync(store, "t1", consumer, batch_size=16)
    # The failure came after some events of a batch had taken effect but before the
    # position moved: the next sync delivers that batch again.
    result = events.sync(store, "t1", consumer, batch_size=16)
    assert consumer.deliveries > written
    assert len(consumer.effects) == len(set(consumer.effects)) == written
    assert result.position == str(tenant.state().main)
    assert events.read_ref(tenant, consumer.name) == result.position
    again = events.sync(store, "t1", consumer)
    assert (again.commits, again.events) == (0, 0)


def test_the_ref_is_advisory_and_follows_the_consumer(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    first = commit_facts(tenant, [Change("u1", "editor", "vim")])
    consumer = DictConsumer()
    events.sync(store, "t1", consumer)
    commit_facts(tenant, [Change("u1", "editor", "emacs")])
    # Someone points the ref elsewhere: the consumer's own position still decides.
    assert events.advance_ref(tenant, consumer.name, first)
    result = events.sync(store, "t1", consumer)
    assert (result.commits, result.events) == (1, 1)
    assert events.read_ref(tenant, consumer.name) == str(tenant.state().main)


def test_a_position_off_main_is_refused(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "vim")])
    state = tenant.state()
    assert state.main_tree is not None
    orphan = _git.create_commit(tenant.repo, tree=state.main_tree.id, parents=[],
                                message="rewritten history\n", author=_git.Author("x", "x@y"))
    consumer = DictConsumer()
    consumer.pos = str(orphan)                        # a commit that main does not contain
    with pytest.raises(StoreError) as info:
        events.sync(store, "t1", consumer)
    assert info.value.code == "consumer_diverged"


def test_a_stale_batch_is_refused_not_applied(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "vim")])
    projection = projections.FactsProjection(store, "t1")
    projection.sync()
    tip = tenant.state().main
    assert tip is not None
    stale = Batch(None, str(tip), (str(tip),), ())
    with pytest.raises(ConcurrencyError) as info:
        projection.apply(stale)
    assert info.value.code == "consumer_position_moved"
    assert projection.position() == str(tip)
    projection.close()


def test_a_hook_nudge_syncs_the_existing_projections(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "vim")])
    main = SimpleNamespace(ref=layout.MAIN_REF)
    assert events.on_refs_updated(tenant.path, [main]) == []     # no projection yet
    facts = projections.FactsProjection(store, "t1")
    facts.sync()
    facts.close()
    commit_facts(tenant, [Change("u1", "editor", "emacs")])        # as if pushed
    audit_only = SimpleNamespace(ref=layout.AUDIT_REF)
    assert events.on_refs_updated(tenant.path, [audit_only]) == []
    [result] = events.on_refs_updated(tenant.path, [main])
    assert (result.consumer, result.events) == ("sqlite-facts", 1)
    assert result.position == str(tenant.state().main)
    assert not projections.VectorProjection(store, "t1").path.exists()
    assert events.on_refs_updated(store.root, [main]) == []       # not a tenant repository


# -- killed consumers ---------------------------------------------------------------------


class _SlowFacts(projections.FactsProjection):
    """Sleeps inside its transaction so that kills land mid-batch."""

    def _apply_one(self, conn: Any, ev: Any, now_ts: float, pending: Any) -> bool:
        time.sleep(0.0003)
        return super()._apply_one(conn, ev, now_ts, pending)


class _SlowVectors(projections.VectorProjection):
    def _apply_one(self, conn: Any, ev: Any, now_ts: float, pending: Any) -> bool:
        time.sleep(0.0003)
        return super()._apply_one(conn, ev, now_ts, pending)


def _sync_child(root: str, seed: int, ready: Any) -> None:
    """Child process: sync both projections in small random batches until done."""
    store = Store(root, durable=False)
    rng = random.Random(seed)
    todo = [_SlowFacts(store, "t1"), _SlowVectors(store, "t1")]
    for p in todo:
        p.position()                                      # open and prepare before "ready"
    ready.set()
    for p in todo:
        while True:
            result = p.sync(batch_size=rng.randint(1, 40))
            if result.commits == 0:
                break


def snapshot(projection: projections.SqliteProjection) -> dict[str, Any]:
    """Everything a projection holds, keyed by memoryId (row ids may legitimately differ)."""
    conn = projection.conn
    facts = sorted(conn.execute(
        "SELECT memory_id, version, status, subject_id, scope_kind, scope_key, kind,"
        " normalized_key, value, quote, expires_ts, path, searchable FROM facts"))
    out: dict[str, Any] = {"facts": facts}
    if isinstance(projection, projections.FactsProjection):
        out["index"] = sorted(conn.execute(
            "SELECT f.memory_id, x.subject, x.kind, x.key, x.value, x.quote"
            " FROM facts_fts x JOIN facts f ON f.id = x.rowid"))
        out["index_rows"] = conn.execute("SELECT count(*) FROM facts_fts").fetchone()[0]
    else:
        out["index"] = sorted(conn.execute(
            "SELECT f.memory_id, v.subject_id, v.vec FROM vectors v JOIN facts f ON f.id = v.id"))
        out["index_rows"] = conn.execute("SELECT count(*) FROM vectors").fetchone()[0]
    return out


def fresh(projection: projections.SqliteProjection, path: Path) -> projections.SqliteProjection:
    """A projection of the same kind rebuilt from scratch at ``path``."""
    if isinstance(projection, projections.VectorProjection):
        other: projections.SqliteProjection = projections.VectorProjection(
            projection.store, projection.tenant_id, embedder=projection.embedder, path=path)
    else:
        other = projections.FactsProjection(projection.store, projection.tenant_id, path=path)
    other.rebuild()
    return other


@pytest.mark.slow
def test_a_consumer_killed_at_random_points_ends_identical_to_a_rebuild(
        store: Store, tmp_path: Path) -> None:
    tenant = store.tenant("t1", create=True)
    written = generate_history(tenant, 1000, seed=1)
    assert written >= 1000
    ctx = multiprocessing.get_context("spawn")
    rng = random.Random(42)
    kills = 0
    for attempt in range(40):
        ready = ctx.Event()
        child = ctx.Process(target=_sync_child, args=(str(store.root), attempt, ready))
        child.start()
        assert ready.wait(60), "child did not start"
        if kills < 6:
            time.sleep(rng.uniform(0.0, 0.35))
            if child.is_alive():
                os.kill(child.pid, signal.SIGKILL)   # type: ignore[arg-type]
                kills += 1
        child.join(60)
        if child.exitcode == 0:
            break
        assert child.exitcode == -signal.SIGKILL, f"child failed: {child.exitcode}"
    else:
        pytest.fail("the consumer never finished")
    assert kills >= 3, "no kill landed while the consumer was applying"

    tip = str(tenant.state().main)
    for cls in (projections.FactsProjection, projections.VectorProjection):
        synced = cls(store, "t1")
        assert synced.position() == tip
        assert synced.sync().commits == 0
        rebuilt = fresh(synced, tmp_path / f"fresh-{cls.kind}.sqlite")
        assert snapshot(synced) == snapshot(rebuilt)
        # Replaying every event again (position forgotten) changes nothing.
        before = snapshot(synced)
        with synced.conn:
            synced.conn.execute("DELETE FROM meta WHERE key = 'position'")
        replay = synced.sync(batch_size=250)
        assert replay.events == written and snapshot(synced) == before
        synced.close()
        rebuilt.close()
    reports = projections.verify_all(store, "t1")
    assert all(r.ok for r in reports), [r.drift for r in reports]
    assert {events.read_ref(tenant, r.projection) for r in reports} == {tip}


@pytest.mark.slow
def test_two_processes_syncing_at_once_end_identical_to_a_rebuild(
        store: Store, tmp_path: Path) -> None:
    tenant = store.tenant("t1", create=True)
    generate_history(tenant, 300, seed=8)
    ctx = multiprocessing.get_context("spawn")
    children, flags = [], []
    for n in range(2):
        flags.append(ctx.Event())             # kept alive until the children have it
        child = ctx.Process(target=_sync_child, args=(str(store.root), 100 + n, flags[-1]))
        child.start()
        children.append(child)
    for child in children:
        child.join(60)
        assert child.exitcode == 0
    for cls in (projections.FactsProjection, projections.VectorProjection):
        synced = cls(store, "t1")
        assert synced.position() == str(tenant.state().main)
        rebuilt = fresh(synced, tmp_path / f"fresh-{cls.kind}.sqlite")
        assert snapshot(synced) == snapshot(rebuilt)
        synced.close()
        rebuilt.close()


def test_the_fts_index_survives_an_interrupted_transaction(store: Store) -> None:
    """A batch that fails half-way leaves neither its effects nor its position."""
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "vim")])
    commit_facts(tenant, [Change("u1", "editor", "emacs"), Change("u1", "drink", "tea")])

    class Failing(projections.FactsProjection):
        calls = 0

        def _apply_one(self, conn: Any, ev: Any, now_ts: float, pending: Any) -> bool:
            Failing.calls += 1
            if Failing.calls == 3:
                raise sqlite3.OperationalError("disk on fire")
            return super()._apply_one(conn, ev, now_ts, pending)

    projection = Failing(store, "t1")
    with pytest.raises(sqlite3.OperationalError):
        projection.sync(batch_size=1)
    first = projection.position()
    assert first is not None and first != str(tenant.state().main)
    assert projection.sync().commits == 1
    assert [h.value for h in projection.search("u1", "emacs")] == ["emacs"]
    assert projection.search("u1", "vim") == []
    projection.close()
