"""Concurrent writers on one tenant: real bare repositories, real processes (spawn).

What is checked is what a client can observe: every process reports the decisions it
got, and afterwards those reports are held against ``main``'s first-parent chain and
its trailers (a small Jepsen-style history check). Races inside one process are forced
deterministically by publishing a competing commit, through a second Store, between a
decision and its compare-and-swap.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import _workers
from _workers import NOW, TENANT, fsck, main_chain, remember, run_processes
from memrepo import _git, gate, layout, lifecycle
from memrepo.errors import StoreError
from memrepo.proposal import DecisionKind, Message
from memrepo.store import State, Store, TenantRepo

CTX = multiprocessing.get_context("spawn")
MAIN = layout.MAIN_REF
AUDIT = layout.AUDIT_REF
PACKAGE_MANAGER = lifecycle.FactRef("u1", {"kind": "global", "key": "default"}, "preference",
                                    "package_manager")


def _ingest(store: Store, messages: list[dict[str, Any]]) -> TenantRepo:
    tenant = store.tenant(TENANT, create=True)
    tenant.ingest([Message.model_validate(m) for m in messages])
    return tenant


def _fact_commits(tenant: TenantRepo, memory_id: str) -> list[dict[str, str]]:
    return [t for _, t in main_chain(tenant.repo)
            if t.get("Memory-Id") == memory_id and "Fact-Version" in t]


# -- 0. a tenant created by several clients at once ------------------------------------


@pytest.mark.slow
def test_concurrent_creators_of_a_tenant_all_get_the_same_repository(store: Store) -> None:
    creators = 6
    barrier, results = CTX.Barrier(creators), CTX.Queue()
    reports = run_processes(CTX, _workers.create_tenant,
                            [(str(store.root), barrier, results)] * creators, results)
    assert len(reports) == creators
    assert len({main for _, main in reports}) == 1, reports  # one initial commit for all
    assert store.tenants() == [TENANT]
    assert sorted(p.name for p in (store.root / "tenants").iterdir()) == [
        layout.tenant_dir(TENANT)], "no half-made repositories left behind"
    tenant = store.tenant(TENANT)
    assert [t.get("Operator") for _, t in main_chain(tenant.repo)] == ["memrepo init"]
    fsck(tenant.path)


# -- 1. first write of a fact, racing ---------------------------------------------------


@pytest.mark.slow
def test_racing_first_writes_of_one_fact_commit_exactly_once(store: Store) -> None:
    values = ["pnpm", "npm", "yarn", "bun", "deno", "pip", "cargo", "poetry"]
    pairs = [remember(v, mid=f"m{i}") for i, v in enumerate(values)]
    tenant = _ingest(store, [m for m, _ in pairs])
    barrier, results = CTX.Barrier(len(pairs)), CTX.Queue()
    reports = run_processes(CTX, _workers.submit_in_threads,
                            [(str(store.root), [raw], barrier, results) for _, raw in pairs],
                            results)

    assert len(reports) == len(pairs)
    decisions = Counter(r[1] for r in reports)
    assert decisions["COMMIT"] == 1, reports
    assert set(decisions) <= {"COMMIT", "CONFIRM_REPLACE", "CONFLICT"}, reports
    winner = next(r for r in reports if r[1] == "COMMIT")
    commits = _fact_commits(tenant, winner[3])
    assert [(t["Proposal-Id"], t["Fact-Version"]) for t in commits] == [(winner[0], "1")]
    fact = tenant.fact_at(tenant.fact_path_of(winner[3], tenant.state()) or "", tenant.state())
    assert fact is not None and fact.version == 1 and fact.proposal_id == winner[0]
    fsck(tenant.path)


# -- 2. approved replacements, racing: no lost update ---------------------------------


@pytest.mark.slow
def test_concurrent_approved_replacements_lose_no_update(store: Store) -> None:
    seed_msg, seed = remember("pnpm", mid="seed")
    tenant = _ingest(store, [seed_msg])
    assert gate.submit(store, seed, now=NOW).decision is DecisionKind.COMMIT
    workers, wanted = 4, 3
    barrier, results = CTX.Barrier(workers), CTX.Queue()
    attempts = run_processes(CTX, _workers.replace_and_confirm,
                             [(str(store.root), w, wanted, barrier, results)
                              for w in range(workers)],
                             results, timeout=90)
    successes = [r for r in attempts if r[3] == "COMMIT"]
    assert len(successes) == workers * wanted, attempts
    # every failure is an honest refusal: the fact changed under the approval
    assert {r[3] for r in attempts} <= {"COMMIT", "CONFLICT"}, attempts
    assert all("fact_changed" in r[4] for r in attempts if r[3] == "CONFLICT")

    history = [fact for _, fact in tenant.history(PACKAGE_MANAGER.path)]
    k = len(history)
    assert [f.version for f in history] == list(range(1, k + 1))
    assert [f.supersedes for f in history] == [None, *range(1, k)]
    reported = sorted(r[5] for r in successes)
    assert reported == list(range(2, k + 1)), "each success is a distinct, stored version"
    by_version = {f.version: f.value for f in history}
    assert all(by_version[r[5]] == r[1] for r in successes)
    fsck(tenant.path)


# -- 3. one proposal replayed 50 times at once ------------------------------------------


@pytest.mark.slow
def test_fifty_concurrent_replays_commit_once(store: Store) -> None:
    msg, raw = remember("pnpm", mid="m1")
    tenant = _ingest(store, [msg])
    before = len(main_chain(tenant.repo))
    processes, threads = 5, 10
    barrier, results = CTX.Barrier(processes * threads), CTX.Queue()
    reports = run_processes(CTX, _workers.submit_in_threads,
                            [(str(store.root), [raw] * threads, barrier, results)
                             for _ in range(processes)],
                            results)

    decisions = Counter(r[1] for r in reports)
    assert decisions == {"COMMIT": 1, "DUPLICATE": processes * threads - 1}, decisions
    assert {r[0] for r in reports} == {_workers.proposal_id(raw)}
    assert all("original_commit" in r[2] and r[4] == 1 for r in reports if r[1] == "DUPLICATE")
    chain = main_chain(tenant.repo)
    assert len(chain) == before + 1
    assert chain[-1][1]["Proposal-Id"] == reports[0][0]
    fsck(tenant.path)


# -- 4. a Jepsen-style history check ----------------------------------------------------


@pytest.mark.slow
def test_history_of_mixed_concurrent_clients_matches_main(store: Store) -> None:
    """Each client submits new facts, shared replays and racing replacements, some of
    them parked (low confidence); every report must agree with ``main`` afterwards."""
    seed = int(os.environ.get("MEMREPO_TEST_SEED", random.randrange(2**32)))
    rng = random.Random(seed)
    clients = 4
    messages: list[dict[str, Any]] = []
    shared = [remember("pnpm", mid="s1", author="u2"),
              remember("Neovim", mid="s2", author="u2", key="editor"),
              remember("postgres", mid="s3", author="u2", key="database", kind="decision"),
              remember("bun", mid="s4", author="u3")]
    messages += [m for m, _ in shared]
    batches: list[list[dict[str, Any]]] = []
    for c in range(clients):
        batch = [raw for _, raw in shared]
        for i in range(3):  # a fact nobody else touches
            m, raw = remember("pnpm", mid=f"n{c}-{i}", author=f"n{c}-{i}")
            messages.append(m)
            batch.append(raw)
        for tag, confidence in (("a", 0.9), ("b", 0.5)):  # the hot fact, explicit and doubtful
            m, raw = remember(f"hot-{c}{tag}", mid=f"h{c}{tag}", confidence=confidence)
            messages.append(m)
            batch.append(raw)
        rng.shuffle(batch)
        batches.append(batch)
    tenant = _ingest(store, messages)
    barrier, results = CTX.Barrier(clients), CTX.Queue()
    attempts = run_processes(CTX, _workers.submit_batch,
                             [(str(store.root), b, barrier, results) for b in batches],
                             results)
    assert len(attempts) == sum(len(b) for b in batches)
    context = f"seed={seed} (rerun with MEMREPO_TEST_SEED={seed})\n{attempts}"

    by_pid: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    for r in attempts:
        by_pid[r[0]].append(r)
    # every proposal was decided exactly once; every other answer is a DUPLICATE of it
    for pid, rs in by_pid.items():
        first = [r for r in rs if r[1] != "DUPLICATE"]
        assert len(first) == 1, (pid, rs, context)
        original = f"original_{first[0][1].lower()}"
        assert all(original in r[2] for r in rs if r[1] == "DUPLICATE"), (pid, rs, context)
    committed = {pid for pid, rs in by_pid.items() if any(r[1] == "COMMIT" for r in rs)}

    chain = main_chain(tenant.repo)
    on_main = [t["Proposal-Id"] for _, t in chain if "Proposal-Id" in t]
    assert Counter(on_main) == Counter(committed), context  # each COMMIT once, nothing else
    assert all(t["Decision"] == "COMMIT" for _, t in chain if "Proposal-Id" in t)

    versions: dict[str, list[int]] = defaultdict(list)
    for commit, t in chain:
        if "Fact-Version" not in t:
            continue
        versions[t["Memory-Id"]].append(int(t["Fact-Version"]))
        fact = tenant.fact_at(tenant.fact_path_of(t["Memory-Id"], tenant.state()) or "",
                              _state_at(tenant, commit))
        assert fact is not None and fact.proposal_id == t["Proposal-Id"], context
        assert fact.supersedes == (fact.version - 1 if fact.version > 1 else None), context
    for mid, vs in versions.items():
        assert vs == list(range(1, len(vs) + 1)), (mid, vs, context)

    # every other decision is recorded on the audit ref, never also on main
    state = tenant.state()
    for pid, rs in by_pid.items():
        record = tenant.record(pid, state)
        assert record is not None, (pid, context)
        assert record.on_main == (pid in committed), (pid, context)
        if not record.on_main:
            assert _git.lookup(state.main_tree, layout.proposal_path(pid)) is None
            assert record.data["decision"] == next(r[1] for r in rs if r[1] != "DUPLICATE")
    fsck(tenant.path)


def _state_at(tenant: TenantRepo, commit: Any) -> State:
    return State(commit.id, None, commit.tree, None)


# -- 5. a moved ref is never overwritten --------------------------------------------------


def _commit_on(repo: Any, parent: Any, text: str) -> Any:
    base = _git.tree_of(repo, parent)
    tree = _git.edit_tree(repo, base, {"note.txt": _git.write_blob(repo, text.encode())})
    return _git.create_commit(repo, tree=tree, parents=[parent] if parent else [],
                              message=text + "\n", author=_git.Author("t", "t@example.invalid"))


def test_compare_and_swap_refuses_a_ref_that_moved(store: Store) -> None:
    tenant = store.tenant(TENANT, create=True)
    mine_repo = tenant.repo
    other = _git.open_repo(tenant.path)  # another writer's handle on the same repository
    seen = _git.resolve(mine_repo, MAIN)
    moved = _commit_on(other, seen, "theirs")
    assert _git.compare_and_swap(other, {MAIN: (seen, moved)}, message="theirs")

    mine = _commit_on(mine_repo, seen, "mine")
    assert not _git.compare_and_swap(mine_repo, {MAIN: (seen, mine)}, message="mine")
    assert _git.resolve(mine_repo, MAIN) == moved
    # creating a ref that someone else created meanwhile is a lost race too
    audit = _commit_on(other, None, "audit")
    assert _git.compare_and_swap(other, {AUDIT: (None, audit)}, message="audit")
    assert not _git.compare_and_swap(mine_repo, {AUDIT: (None, mine)}, message="mine")
    assert _git.resolve(mine_repo, AUDIT) == audit
    # a ref only verified, not written, must not have moved either
    newer = _commit_on(mine_repo, moved, "mine, on the new tip")
    assert not _git.compare_and_swap(mine_repo, {MAIN: (moved, newer)}, message="mine",
                                     verify={AUDIT: None})
    assert _git.resolve(mine_repo, MAIN) == moved
    assert _git.compare_and_swap(mine_repo, {MAIN: (moved, newer)}, message="mine",
                                 verify={AUDIT: audit})
    assert _git.resolve(mine_repo, MAIN) == newer
    assert _git.resolve(mine_repo, AUDIT) == audit
    # a fresh <ref>.lock is a plain git process updating the ref right now: hands off
    lock = tenant.path / "refs" / "heads" / "main.lock"
    lock.write_text("in progress\n")
    assert not _git.compare_and_swap(mine_repo, {MAIN: (newer, moved)}, message="x")
    assert lock.read_text() == "in progress\n" and _git.resolve(mine_repo, MAIN) == newer
    lock.unlink()
    fsck(tenant.path)


def _race_before_first_commit(monkeypatch: pytest.MonkeyPatch, store: Store,
                              competitor: Callable[[Store], Any]) -> list[Any]:
    """Make the next TenantRepo.commit first run ``competitor`` through another Store.

    That is exactly the window a second process could use: after the proposal was
    assessed on a tip, before its commit is published. Everything stays real git.
    """
    real_commit = TenantRepo.commit
    landed: list[Any] = []

    def commit_after_competitor(self: TenantRepo, state: Any, **kwargs: Any) -> Any:
        if not landed:
            landed.append(None)
            landed[0] = competitor(Store(store.root, durable=False))
        return real_commit(self, state, **kwargs)

    monkeypatch.setattr(TenantRepo, "commit", commit_after_competitor)
    return landed


def test_a_commit_that_loses_the_race_is_re_decided_not_forced(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    mine_msg, mine = remember("pnpm", mid="m1")
    theirs_msg, theirs = remember("yarn", mid="m2")
    tenant = _ingest(store, [mine_msg, theirs_msg])
    landed = _race_before_first_commit(monkeypatch, store,
                                       lambda other: gate.submit(other, theirs, now=NOW))

    decision = gate.submit(store, mine, now=NOW)
    assert landed[0].decision is DecisionKind.COMMIT
    assert decision.decision is DecisionKind.CONFIRM_REPLACE, decision
    assert "re_decided_after_race" in decision.reasons
    chain = main_chain(tenant.repo)
    assert chain[-1][1]["Proposal-Id"] == landed[0].proposal_id  # the competitor stays
    assert decision.proposal_id not in {t.get("Proposal-Id") for _, t in chain}
    fact = tenant.fact_at(PACKAGE_MANAGER.path, tenant.state())
    assert fact is not None and fact.value == "yarn" and fact.version == 1
    fsck(tenant.path)


def test_a_proposal_is_never_both_parked_and_committed(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write to ``main`` also invalidates a decision to write the audit ref.

    The proposal is assessed while the fact says yarn: CONFIRM_REPLACE, to be parked
    on the audit ref. Before that lands, an administrator sets the fact to pnpm and a
    client's retry of the very same proposal commits it on ``main`` (it now merely
    reaffirms the fact). A compare-and-swap of only the written ref let the parked
    record land as well: one proposalId, two different decisions.
    """
    seed_msg, seed = remember("yarn", mid="m0")
    msg, raw = remember("pnpm", mid="m1")
    tenant = _ingest(store, [seed_msg, msg])
    assert gate.submit(store, seed, now=NOW).decision is DecisionKind.COMMIT

    def admin_then_retry(other: Store) -> Any:
        lifecycle.admin_set(other, TENANT, PACKAGE_MANAGER, "pnpm", operator="admin",
                            reason="said so on the phone", now=NOW)
        return gate.submit(other, raw, now=NOW)

    landed = _race_before_first_commit(monkeypatch, store, admin_then_retry)
    decision = gate.submit(store, raw, now=NOW)
    assert landed[0].decision is DecisionKind.COMMIT, landed
    assert decision.decision is DecisionKind.DUPLICATE, decision
    assert "original_commit" in decision.reasons
    state = tenant.state()
    path = layout.proposal_path(landed[0].proposal_id)
    assert _git.lookup(state.main_tree, path) is not None
    assert _git.lookup(state.audit_tree, path) is None, "also parked on the audit ref"
    assert tenant.pending_for(landed[0].memory_id, state) == []
    fsck(tenant.path)


# -- 6. locks of dead writers are recovered, locks of live ones are not -----------------


@pytest.mark.slow
@pytest.mark.parametrize("by_hand", [False, True], ids=["libgit2-transaction", "plain-file"])
def test_ref_lock_of_a_killed_writer_is_recovered_and_a_live_one_is_not_stolen(
        store: Store, monkeypatch: pytest.MonkeyPatch, by_hand: bool) -> None:
    monkeypatch.setenv("MEMREPO_STALE_LOCK_SECONDS", "0.5")  # parent and child
    msg, raw = remember("pnpm", mid="m1")
    tenant = _ingest(store, [msg])
    before = tenant.state().main
    lock = tenant.path / "refs" / "heads" / "main.lock"
    ready = CTX.Event()
    holder = CTX.Process(target=_workers.hold_cas_and_ref_lock,
                         args=(str(tenant.path), MAIN, by_hand, ready))
    holder.start()
    try:
        assert ready.wait(30), "the lock holder did not start"
        assert lock.exists()
        time.sleep(0.7)  # older than the stale limit now: only its holder's life protects it
        monkeypatch.setattr(_git, "CAS_LOCK_TIMEOUT", 0.5)
        with pytest.raises(StoreError) as err:
            gate.submit(store, raw, now=NOW)
        assert err.value.code == "cas_lock_timeout"
        assert lock.exists(), "a live writer's ref lock was stolen"
        assert _git.resolve(tenant.repo, MAIN) == before
    finally:
        holder.kill()  # SIGKILL: no cleanup, the OS drops only the fcntl lock
        holder.join()
    assert holder.exitcode == -9
    assert lock.exists()
    monkeypatch.setattr(_git, "CAS_LOCK_TIMEOUT", 10.0)

    started = time.monotonic()
    decision = gate.submit(store, raw, now=NOW)
    elapsed = time.monotonic() - started
    assert decision.decision is DecisionKind.COMMIT, decision
    assert elapsed < 5.0, f"recovering the stale lock took {elapsed:.1f}s"
    assert not lock.exists()
    assert main_chain(tenant.repo)[-1][1]["Proposal-Id"] == decision.proposal_id
    fsck(tenant.path)


# -- 7. libgit2's temporary files --------------------------------------------------------


def test_leftover_temp_files_are_cleaned_and_real_objects_kept(store: Store) -> None:
    msg, raw = remember("pnpm", mid="m1")
    tenant = _ingest(store, [msg])
    assert gate.submit(store, raw, now=NOW).decision is DecisionKind.COMMIT
    objects = tenant.path / "objects"
    tenant.repo.create_blob(b"a loose object that must survive the sweep")
    real = _loose_objects(objects)
    assert real
    hour_ago = time.time() - 3600
    old = objects / "tmp_object_git2_a1B2c3"
    old_pack = objects / "pack" / "pack_git2_d4E5f6"
    fresh = objects / "tmp_object_git2_g7H8i9"  # a live writer may be writing this one
    for path in (old, old_pack, fresh):
        path.write_bytes(b"x\x9c partial zlib")
    for path in (old, old_pack):
        os.utime(path, (hour_ago, hour_ago))

    assert _git.clean_temp_files(tenant.repo) == 2
    assert not old.exists() and not old_pack.exists() and fresh.exists()
    assert _loose_objects(objects) == real

    # opening the tenant (any process's first step) is when leftovers get swept
    os.utime(fresh, (hour_ago, hour_ago))
    Store(store.root, durable=False).tenant(TENANT)
    assert not fresh.exists()
    assert _loose_objects(objects) == real
    fsck(tenant.path)


def _loose_objects(objects: Path) -> set[str]:
    return {f"{d.name}/{f.name}" for d in objects.iterdir()
            if len(d.name) == 2 and d.is_dir() for f in d.iterdir()}


# -- a loser of many races still gets an answer ----------------------------------------


def test_lifecycle_confirm_reports_conflict_after_the_fact_moved(store: Store) -> None:
    """The approval half of the no-lost-update property, without processes."""
    seed_msg, seed = remember("pnpm", mid="m0")
    a_msg, a = remember("yarn", mid="m1")
    b_msg, b = remember("bun", mid="m2")
    _ingest(store, [seed_msg, a_msg, b_msg])
    assert gate.submit(store, seed, now=NOW).decision is DecisionKind.COMMIT
    da, db = gate.submit(store, a, now=NOW), gate.submit(store, b, now=NOW)
    assert da.decision is DecisionKind.CONFIRM_REPLACE
    assert db.decision in (DecisionKind.CONFIRM_REPLACE, DecisionKind.CONFLICT)
    assert da.proposal_id and da.payload_hash and db.proposal_id and db.payload_hash
    first = lifecycle.confirm(store, TENANT, db.proposal_id, db.payload_hash, approver="u1",
                              now=NOW)
    second = lifecycle.confirm(store, TENANT, da.proposal_id, da.payload_hash, approver="u1",
                               now=NOW)
    assert (first.decision, first.version) == (DecisionKind.COMMIT, 2)
    assert second.decision is DecisionKind.CONFLICT and "fact_changed" in second.reasons
