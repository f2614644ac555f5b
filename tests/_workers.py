"""Functions run in child processes by the concurrency and crash tests.

Children are started with the ``spawn`` context (a forked child would inherit
libgit2's state, including the random source of its temp-file names), so everything
here must be importable by name: pytest puts ``tests/`` on ``sys.path`` and a spawned
child gets its parent's ``sys.path``, so this module imports as ``_workers`` in both.
It deliberately does not import ``conftest`` (and with it pytest) into the children.

Every worker reports plain tuples through a multiprocessing queue or an append-only
log file, never objects of the library, so the parent can check what each process
*said* happened against what is actually on ``main``.
"""

from __future__ import annotations

import os
import threading
import time
from datetime import UTC, datetime
from typing import Any

NOW = datetime(2026, 10, 14, 9, 0, tzinfo=UTC)
TENANT = "t1"


# -- building inputs (no memrepo import needed by callers that only build dicts) -------


def make_message(text: str, *, mid: str, author: str = "u1", conversation: str = "c1"
                 ) -> dict[str, Any]:
    return {
        "messageId": mid, "tenantId": TENANT, "conversationId": conversation,
        "authorId": author, "role": "user", "origin": "user", "text": text,
        "createdAt": "2026-10-14T08:00:00Z",
    }


def make_proposal(msg: dict[str, Any], *, value: Any, key: str = "package_manager",
                  kind: str = "preference", confidence: float = 0.9) -> dict[str, Any]:
    """A proposal whose evidence span is the whole message (instruction and value)."""
    from memrepo import canonical

    text = msg["text"]
    return {
        "tenantId": TENANT, "subjectId": msg["authorId"],
        "scope": {"kind": "global", "key": "default"}, "kind": kind,
        "normalizedKey": key, "value": value,
        "evidence": {"messageId": msg["messageId"], "start": 0, "end": len(text),
                     "sha256": canonical.evidence_hash(text)},
        "confidence": confidence,
    }


def remember(value: str, *, mid: str, author: str = "u1", key: str = "package_manager",
             kind: str = "preference", confidence: float = 0.9
             ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A message with an explicit instruction and a proposal grounded in it."""
    what = {"package_manager": "for packages", "editor": "as my editor",
            "database": "as the database"}.get(key, f"for {key}")
    msg = make_message(f"Remember that I use {value} {what}.", mid=mid, author=author)
    return msg, make_proposal(msg, value=value, key=key, kind=kind, confidence=confidence)


def proposal_id(raw: dict[str, Any]) -> str:
    from memrepo.proposal import parse_proposal

    return parse_proposal(raw).id


# -- workers ---------------------------------------------------------------------------


def _report(decision: Any) -> tuple[Any, ...]:
    return (decision.proposal_id, decision.decision.value, tuple(decision.reasons),
            decision.memory_id, decision.version)


def submit_in_threads(root: str, raws: list[dict[str, Any]], barrier: Any, results: Any
                      ) -> None:
    """One thread per proposal, each with its own Store, all released at ``barrier``."""
    from memrepo import gate
    from memrepo.store import Store

    def one(raw: dict[str, Any]) -> None:
        store = Store(root, durable=False)
        store.tenant(TENANT)
        try:
            barrier.wait(timeout=60)
            results.put(_report(gate.submit(store, raw, now=NOW)))
        except Exception as exc:  # reported, so the parent fails with the cause
            results.put(("error", repr(exc)))

    threads = [threading.Thread(target=one, args=(raw,)) for raw in raws]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put(("done", os.getpid()))


def submit_durable_in_threads(root: str, raws_per_thread: list[list[dict[str, Any]]],
                              barrier: Any, results: Any) -> None:
    """One thread per list, each with its own durable Store, submitting its list in order
    once all are released at ``barrier`` (callers that group commit must batch)."""
    from memrepo import gate
    from memrepo.store import Store

    def one(raws: list[dict[str, Any]]) -> None:
        store = Store(root, durable=True)
        store.tenant(TENANT)
        try:
            barrier.wait(timeout=60)
            for raw in raws:
                results.put(_report(gate.submit(store, raw, now=NOW)))
        except Exception as exc:
            results.put(("error", repr(exc)))

    threads = [threading.Thread(target=one, args=(raws,)) for raws in raws_per_thread]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put(("done", os.getpid()))


def create_tenant(root: str, barrier: Any, results: Any) -> None:
    """Open-or-create the tenant, as every client of a fresh store would at once."""
    from memrepo.store import Store

    store = Store(root, durable=False)
    barrier.wait(timeout=60)
    try:
        repo = store.tenant(TENANT, create=True)
        results.put(("created", str(repo.state().main)))
    except Exception as exc:
        results.put(("error", repr(exc)))
    results.put(("done", os.getpid()))


def submit_batch(root: str, raws: list[dict[str, Any]], barrier: Any, results: Any) -> None:
    """Submit ``raws`` one after another (a client with a queue), reporting every attempt."""
    from memrepo import gate
    from memrepo.store import Store

    store = Store(root, durable=False)
    store.tenant(TENANT)
    barrier.wait(timeout=60)
    for raw in raws:
        try:
            results.put(_report(gate.submit(store, raw, now=NOW)))
        except Exception as exc:
            results.put(("error", repr(exc)))
    results.put(("done", os.getpid()))


def replace_and_confirm(root: str, worker: int, wanted: int, barrier: Any, results: Any
                        ) -> None:
    """Keep proposing a new value and confirming it until ``wanted`` of them committed.

    A confirmation that finds the fact changed since the proposal was parked comes
    back CONFLICT; the worker then proposes afresh from a new message, as a person
    re-stating their preference would.
    """
    from memrepo import gate, lifecycle
    from memrepo.proposal import DecisionKind, Message
    from memrepo.store import Store

    store = Store(root, durable=False)
    tenant = store.tenant(TENANT)
    barrier.wait(timeout=60)
    done = 0
    for attempt in range(60):
        if done >= wanted:
            break
        value = f"tool-{worker}-{attempt}"
        msg, raw = remember(value, mid=f"r{worker}-{attempt}")
        try:
            tenant.ingest([Message.model_validate(msg)])
            first = gate.submit(store, raw, now=NOW)
            final = first
            if first.decision in (DecisionKind.CONFIRM_REPLACE, DecisionKind.CONFLICT,
                                  DecisionKind.NEEDS_CONFIRMATION):
                assert first.proposal_id is not None and first.payload_hash is not None
                final = lifecycle.confirm(store, TENANT, first.proposal_id, first.payload_hash,
                                          approver="u1", now=NOW)
        except Exception as exc:
            results.put(("error", repr(exc)))
            break
        results.put((worker, value, first.decision.value, final.decision.value,
                     tuple(final.reasons), final.version))
        if final.decision is DecisionKind.COMMIT:
            done += 1
    results.put(("done", worker))


def hold_cas_and_ref_lock(repo_path: str, ref: str, by_hand: bool, ready: Any) -> None:
    """Hold the CAS lock and ``<ref>.lock`` like a writer between lock and update, forever.

    ``by_hand`` creates the lock file as plain git does (O_CREAT|O_EXCL) instead of
    through a libgit2 transaction. The parent kills this process to simulate a crash.
    """
    from memrepo import _git

    repo = _git.open_repo(repo_path)
    held: list[Any] = [_git.cas_lock(repo)]  # referenced until the process dies
    held[0].acquire()
    if by_hand:
        path = os.path.join(repo.path, ref + ".lock")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, b"0" * 40 + b"\n")  # half-written: what a crash mid-update leaves
    else:
        held.append(repo.transaction())
        held[-1].lock_ref(ref)
    ready.set()
    while held:
        time.sleep(1)


def _append(log: str, line: str) -> None:
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        os.write(fd, (line + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def crash_writer(root: str, raws: list[tuple[str, dict[str, Any]]], log: str, ready: Any
                 ) -> None:
    """Submit ``raws`` over and over with fsync on, logging each attempt and result.

    The parent SIGKILLs this process at a random moment: every line in ``log`` was
    fsynced before the next step, so ``RESULT pid COMMIT`` is a promise the store
    must keep after the crash.
    """
    from memrepo import gate
    from memrepo.proposal import parse_proposal
    from memrepo.store import Store

    store = Store(root, durable=True)
    tenant = store.tenant(TENANT)
    # Warm up (policy, lexicons, secret detectors load on first use) without writing,
    # so the kills land in commits rather than in the first submit's imports.
    gate.assess(tenant, tenant.state(), parse_proposal(raws[0][1]), NOW)
    ready.set()
    while True:
        for pid, raw in raws:
            _append(log, f"ATTEMPT {pid}")
            decision = gate.submit(store, raw, now=NOW)
            _append(log, f"RESULT {pid} {decision.decision.value}")


def batch_crash_writer(root: str, raws: list[tuple[str, dict[str, Any]]], log: str, ready: Any
                       ) -> None:
    """Like :func:`crash_writer`, but submitting batches of 1 to 4 with ``submit_many``."""
    import random

    from memrepo import gate
    from memrepo.proposal import parse_proposal
    from memrepo.store import Store

    store = Store(root, durable=True)
    tenant = store.tenant(TENANT)
    gate.assess(tenant, tenant.state(), parse_proposal(raws[0][1]), NOW)
    ready.set()
    rng = random.Random(os.getpid())
    while True:
        start = 0
        while start < len(raws):
            chunk = raws[start:start + rng.randint(1, 4)]
            start += len(chunk)
            _append(log, "ATTEMPT " + " ".join(pid for pid, _ in chunk))
            decisions = gate.submit_many(store, [raw for _, raw in chunk], now=NOW)
            for (pid, _), decision in zip(chunk, decisions, strict=True):
                _append(log, f"RESULT {pid} {decision.decision.value}")


# -- parent-side helpers shared by test_concurrency and test_crash ---------------------


def run_processes(ctx: Any, target: Any, args_list: list[tuple[Any, ...]], results: Any,
                  *, timeout: float = 60.0) -> list[tuple[Any, ...]]:
    """Start one process per args tuple, collect their reports, reap the processes.

    Each worker ends with a ``("done", ...)`` report; the queue is drained until every
    process said so (a child with unread queue data cannot exit, so join comes last).
    Fails fast when every child has exited without saying so, e.g. crashed on import.
    """
    import queue

    procs = [ctx.Process(target=target, args=args) for args in args_list]
    for proc in procs:
        proc.start()
    out: list[tuple[Any, ...]] = []
    done = 0
    deadline = time.monotonic() + timeout
    try:
        while done < len(procs):
            try:
                item = results.get(timeout=0.5)
            except queue.Empty:
                if all(not p.is_alive() for p in procs) and results.empty():
                    codes = [p.exitcode for p in procs]
                    raise AssertionError(f"children exited ({codes}) after {len(out)}"
                                         " reports") from None
                if time.monotonic() > deadline:
                    raise AssertionError(f"timed out after {len(out)} reports") from None
                continue
            if item[0] == "done":
                done += 1
            else:
                out.append(item)
    finally:
        for proc in procs:
            proc.join(timeout=max(0.1, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join()
    errors = [r for r in out if r[0] == "error"]
    assert not errors, errors
    return out


def main_chain(repo: Any) -> list[tuple[Any, dict[str, str]]]:
    """``main``'s first-parent chain, oldest first, with each commit's trailers."""
    from memrepo import _git, layout

    tip = _git.resolve(repo, layout.MAIN_REF)
    chain = [(c, _git.parse_trailers(c.message)) for c in _git.first_parent_chain(repo, tip)]
    chain.reverse()
    return chain


def fsck(path: Any) -> str:
    """``git fsck --strict`` with real git; fails on any error, returns its output."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_DIR")}
    proc = subprocess.run(["git", "--git-dir", str(path), "fsck", "--strict", "--no-progress"],
                          capture_output=True, text=True, env=env)
    output = proc.stdout + proc.stderr
    bad = [line for line in output.splitlines()
           if not line.startswith(("dangling ", "Checking ", "notice: "))]
    assert proc.returncode == 0 and not bad, output
    return output


def look_up_records(root: str, pids: list[str], barrier: Any, results: Any) -> None:
    """Look every proposalId up (through the record index) right after the others start."""
    from memrepo.store import Store

    tenant = Store(root, durable=False).tenant(TENANT)
    barrier.wait()
    found = {}
    for _ in range(3):
        state = tenant.state()
        for pid in pids:
            rec = tenant.record(pid, state)
            found[pid] = None if rec is None else (rec.data["proposalId"], rec.on_main)
    results.put(found)
