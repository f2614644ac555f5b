"""Writers SIGKILLed at random moments leave a store that is whole and keeps its word.

Each writer (a spawned process, fsync on) logs ``ATTEMPT pid`` before and
``RESULT pid decision`` after every submit, fsynced. After several rounds of kills:
real ``git fsck --strict`` is clean, ``main`` is a valid commit, every reported COMMIT
is on ``main``, every proposal can be re-submitted (DUPLICATE when it had been decided,
a fresh decision when the crash came first) and the store takes new writes.

The schedule is random; the seed is printed (shown by pytest on failure) and can be
replayed with ``MEMREPO_CRASH_SEED=<seed>``.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import _workers
from _workers import NOW, TENANT, fsck, main_chain, remember
from memrepo import _git, gate, layout
from memrepo.proposal import DecisionKind, Message
from memrepo.store import Store

CTX = multiprocessing.get_context("spawn")
WRITERS = 3
ROUNDS = 3
PER_ROUND = 14


def _pool() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """New facts, a hot fact several writers replace (some doubtful), shared facts."""
    pool = [remember("pnpm", mid=f"new{i}", author=f"s{i}") for i in range(40)]
    pool += [remember(f"hot{i}", mid=f"hot{i}", confidence=0.9 if i % 3 else 0.5)
             for i in range(8)]
    pool += [remember("Neovim", mid="ed", author="u2", key="editor"),
             remember("postgres", mid="db", author="u2", key="database", kind="decision")]
    return pool


def _read_log(path: Path) -> tuple[list[str], dict[str, list[str]]]:
    attempts: list[str] = []
    results: dict[str, list[str]] = defaultdict(list)
    if not path.exists():
        return attempts, results
    for line in path.read_text().splitlines():
        parts = line.split()
        if parts[:1] == ["ATTEMPT"] and len(parts) == 2:
            attempts.append(parts[1])
        elif parts[:1] == ["RESULT"] and len(parts) == 3:
            results[parts[1]].append(parts[2])
    return attempts, results


@pytest.mark.slow
def test_sigkilled_writers_leave_a_consistent_store(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    seed = int(os.environ.get("MEMREPO_CRASH_SEED", random.randrange(2**32)))
    print(f"crash schedule seed: {seed} (replay with MEMREPO_CRASH_SEED={seed})")
    rng = random.Random(seed)
    monkeypatch.setenv("MEMREPO_STALE_LOCK_SECONDS", "0.5")  # inherited by the writers

    store = Store.init(tmp_path / "store", durable=True)
    tenant = store.tenant(TENANT, create=True)
    pool = _pool()
    tenant.ingest([Message.model_validate(m) for m, _ in pool])
    by_pid = {_workers.proposal_id(raw): raw for _, raw in pool}
    pids = list(by_pid)
    logs = [tmp_path / f"writer{w}.log" for w in range(WRITERS)]

    kills = 0
    for round_no in range(ROUNDS):
        ready = [CTX.Event() for _ in range(WRITERS)]
        procs = []
        for w in range(WRITERS):
            chosen = rng.sample(pids, PER_ROUND)
            raws = [(pid, by_pid[pid]) for pid in chosen]
            procs.append(CTX.Process(target=_workers.crash_writer,
                                     args=(str(store.root), raws, str(logs[w]), ready[w])))
        for proc in procs:
            proc.start()
        try:
            for event in ready:
                assert event.wait(60), f"a writer did not start (seed {seed})"
            for proc in rng.sample(procs, len(procs)):
                time.sleep(rng.uniform(0.02, 0.5))
                assert proc.is_alive(), (f"writer exited by itself: {proc.exitcode}"
                                         f" (round {round_no}, seed {seed})")
                os.kill(proc.pid or 0, signal.SIGKILL)
                kills += 1
        finally:
            for proc in procs:
                if proc.is_alive():
                    proc.kill()
                proc.join()
        assert [p.exitcode for p in procs] == [-signal.SIGKILL] * WRITERS, seed

    attempted: set[str] = set()
    reported: dict[str, list[str]] = defaultdict(list)
    for log in logs:
        attempts, results = _read_log(log)
        attempted.update(attempts)
        for pid, decisions in results.items():
            reported[pid] += decisions
    unfinished = sum(len(_read_log(log)[0]) - sum(map(len, _read_log(log)[1].values()))
                     for log in logs)
    leftovers = sorted(p.name for p in [*tenant.path.glob("refs/**/*.lock"),
                                        *tenant.path.glob("objects/tmp_*")])
    context = (f"seed {seed}: {kills} kills, {len(attempted)} proposals attempted,"
               f" {unfinished} attempts cut off by a kill, left behind: {leftovers}")
    print(context)
    assert attempted, context

    # the repository is whole and main is a valid commit
    fsck(tenant.path)
    after = Store(store.root, durable=True)
    repo = after.tenant(TENANT)
    state = repo.state()
    assert state.main is not None and state.main_tree is not None, context
    chain = main_chain(repo.repo)
    on_main = [t["Proposal-Id"] for _, t in chain if "Proposal-Id" in t]
    assert len(on_main) == len(set(on_main)), context

    # every reported decision is durable: COMMITs on main, the rest on the audit ref
    for pid, decisions in reported.items():
        record = repo.record(pid, state)
        assert record is not None, (pid, decisions, context)
        firsts = {d for d in decisions if d != "DUPLICATE"}
        assert len(firsts) <= 1, (pid, decisions, context)
        if "COMMIT" in decisions:
            assert pid in on_main and record.on_main, (pid, context)
        elif firsts:
            assert not record.on_main and record.data["decision"] in firsts, (pid, context)
    versions: dict[str, list[int]] = defaultdict(list)
    for _, t in chain:
        if "Fact-Version" in t:
            versions[t["Memory-Id"]].append(int(t["Fact-Version"]))
    for mid, vs in versions.items():
        assert vs == list(range(1, len(vs) + 1)), (mid, vs, context)

    # re-submitting every attempted proposal is idempotent
    for pid in sorted(attempted):
        known = repo.record(pid, repo.state())
        again = gate.submit(after, by_pid[pid], now=NOW)
        if known is not None:
            assert again.decision is DecisionKind.DUPLICATE, (pid, again, context)
            assert f"original_{known.data['decision'].lower()}" in again.reasons
        else:  # the writer died before its decision was published: decided now
            assert pid not in reported, (pid, context)
            assert again.decision is not DecisionKind.DUPLICATE, (pid, again, context)
        assert gate.submit(after, by_pid[pid], now=NOW).decision is DecisionKind.DUPLICATE
    fsck(tenant.path)

    # and it takes new writes
    msg, raw = remember("pnpm", mid="after-crash", author="fresh")
    repo.ingest([Message.model_validate(msg)])
    decision = gate.submit(after, raw, now=NOW)
    assert decision.decision is DecisionKind.COMMIT, (decision, context)
    assert main_chain(repo.repo)[-1][1]["Proposal-Id"] == decision.proposal_id
    for ref in (layout.MAIN_REF, layout.AUDIT_REF):
        assert not (repo.path / (ref + ".lock")).exists(), ref
    # with every writer gone, a sweep may take even fresh temp files: they are garbage
    _git.clean_temp_files(repo.repo, older_than=0)
    assert not list(repo.path.glob("objects/tmp_*")), context
    fsck(tenant.path)
