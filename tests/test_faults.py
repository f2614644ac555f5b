"""Storage faults, in SQLite's manner: fail the Nth write for every N across a burst.

A burst of ordinary work (single submits, a batch, an ingest, a confirmation through the
loose-object path) runs once to count its writes to disk (``_git.FAULTS`` counts every
pack, index, fsync, rename, loose object, ref update and spool file), then once more in
a fresh copy of the store for every N, with the Nth write raising ENOSPC or EIO (and, in
the "sticky" variant, every write after it too: a full disk stays full). Afterwards:

* every failure reached the caller as a StoreError (never a decision it did not get),
* ``git fsck --strict`` is clean,
* ``main`` is a commit whose every proposal was reported committed, and nothing
  reported committed is missing; every other reported decision has its record,
* no ref lock is left behind, and the store takes new writes.

A second test does the same with a real full disk: a small tmpfs (skipped where it
cannot be mounted). A third kills durable writers using batches at random moments.
"""

from __future__ import annotations

import errno
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import _workers
from _workers import NOW, TENANT, fsck, main_chain, remember
from memrepo import _git, gate, layout, lifecycle
from memrepo.errors import MemrepoError, StoreError
from memrepo.proposal import DecisionKind, Message
from memrepo.store import Store

CTX = multiprocessing.get_context("spawn")


@pytest.fixture(autouse=True)
def _no_faults_left(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("MEMREPO_AUTO_MAINTENANCE", "off")
    _git.FAULTS.disarm()
    yield
    _git.FAULTS.disarm()


@pytest.fixture
def fast_dir(tmp_path: Path) -> Iterator[Path]:
    """A directory in memory when there is one (/dev/shm): the sweep runs a hundred
    bursts, and their fsyncs (counted and failed all the same) would cost seconds."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    path = shm / f"memrepo-faults-{uuid.uuid4().hex[:12]}"
    path.mkdir()
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# -- the burst ---------------------------------------------------------------------------

SEED = remember("yarn", mid="seed", author="u1")
SINGLE = [remember("Neovim", mid="a1", author="u1", key="editor"),
          remember("pnpm", mid="a2", author="u2")]
BATCH = [remember("postgres", mid="b1", author="u3", key="database", kind="decision"),
         remember("pnpm", mid="b2", author="u1"),      # replaces yarn: parked
         remember("bun", mid="b3", author="u4")]
LATE = remember("deno", mid="late", author="u5")        # its message is ingested in the burst
AFTER = remember("cargo", mid="after", author="u6")     # the write that must work afterwards


def _template(root: Path) -> Path:
    store = Store.init(root, durable=True)
    tenant = store.tenant(TENANT, create=True)
    tenant.ingest([Message.model_validate(m) for m, _ in [SEED, *SINGLE, *BATCH, AFTER]])
    assert gate.submit(store, SEED[1], now=NOW).decision is DecisionKind.COMMIT
    return root


Report = tuple[str, str]  # (proposalId or "-", decision value or "ERROR:<code>")


def _burst(root: Path) -> list[Report]:
    """Ordinary work; every StoreError is recorded as what its caller saw."""
    store = Store(root, durable=True)
    tenant = store.tenant(TENANT)
    out: list[Report] = []

    def attempt(pids: list[str], call: Any) -> Any:
        try:
            result = call()
        except StoreError as exc:
            out.extend((pid, f"ERROR:{exc.code}") for pid in pids)
            return None
        for pid, decision in zip(pids, result if isinstance(result, list) else [result],
                                 strict=True):
            out.append((pid, decision.decision.value))
        return result

    for _, raw in SINGLE:
        attempt([_workers.proposal_id(raw)], lambda raw=raw: gate.submit(store, raw, now=NOW))
    batch = [raw for _, raw in BATCH]
    decided = attempt([_workers.proposal_id(r) for r in batch],
                      lambda: gate.submit_many(store, batch, now=NOW))
    attempt(["-"], lambda: _ingested(tenant))
    attempt([_workers.proposal_id(LATE[1])], lambda: gate.submit(store, LATE[1], now=NOW))
    parked = [d for d in decided or [] if d.decision is DecisionKind.CONFIRM_REPLACE]
    for d in parked:  # the loose-object path: lifecycle writes outside a batch
        assert d.proposal_id is not None and d.payload_hash is not None
        pid, phash = d.proposal_id, d.payload_hash
        attempt([pid], lambda pid=pid, phash=phash: lifecycle.confirm(
            store, TENANT, pid, phash, approver="u1", now=NOW))
    return out


class _Ingested:
    decision = DecisionKind.COMMIT  # reported as "the ingest went through"


def _ingested(tenant: Any) -> _Ingested:
    tenant.ingest([Message.model_validate(LATE[0])])
    return _Ingested()


def _check(root: Path, reports: list[Report], context: str) -> None:
    """The invariants, checked with every fault disarmed."""
    _git.FAULTS.disarm()
    path = root / "tenants" / layout.tenant_dir(TENANT)
    fsck(path)
    store = Store(root, durable=True)
    tenant = store.tenant(TENANT)
    state = tenant.state()
    assert state.main is not None, context
    committed = {pid for pid, outcome in reports if outcome == "COMMIT" and pid != "-"}
    committed.add(_workers.proposal_id(SEED[1]))
    on_main = [t["Proposal-Id"] for _, t in main_chain(tenant.repo) if "Proposal-Id" in t]
    assert len(on_main) == len(set(on_main)), context
    assert set(on_main) == committed, (context, set(on_main) ^ committed)
    for pid, outcome in reports:  # a parked proposal is on the audit ref (or confirmed)
        if pid == "-" or outcome.startswith("ERROR") or outcome == "COMMIT":
            continue
        record = tenant.record(pid, state)
        assert record is not None and record.on_main == (pid in committed), (pid, context)
    for ref in (layout.MAIN_REF, layout.AUDIT_REF):
        assert not (path / (ref + ".lock")).exists(), context
    # and it takes new writes; what was committed stays committed
    decisions = gate.submit_many(store, [AFTER[1], *(raw for _, raw in [*SINGLE, *BATCH])],
                                 now=NOW)
    assert decisions[0].decision is DecisionKind.COMMIT, context
    for (_, raw), again in zip([*SINGLE, *BATCH], decisions[1:], strict=True):
        if _workers.proposal_id(raw) in committed:
            assert again.decision is DecisionKind.DUPLICATE, (again, context)
    assert main_chain(tenant.repo)[-1][0].id == tenant.state().main


def _count_writes(template: Path, tmp_path: Path) -> int:
    work = tmp_path / "count"
    shutil.copytree(template, work, symlinks=True)
    _git.FAULTS.arm(10**9)
    reports = _burst(work)
    writes = _git.FAULTS.calls
    _git.FAULTS.disarm()
    assert all(not outcome.startswith("ERROR") for _, outcome in reports), reports
    _check(work, reports, "no fault")
    return writes


@pytest.mark.parametrize(("err", "sticky"), [(errno.ENOSPC, False), (errno.EIO, False),
                                             (errno.ENOSPC, True)],
                         ids=["enospc-once", "eio-once", "disk-stays-full"])
def test_a_failed_write_at_every_point_of_a_burst_leaves_a_consistent_store(
        fast_dir: Path, err: int, sticky: bool) -> None:
    tmp_path = fast_dir
    template = _template(tmp_path / "template")
    writes = _count_writes(template, tmp_path)
    assert writes > 20, writes  # packs, fsyncs, renames, refs, loose objects, spool
    failures_seen: set[str] = set()
    for n in range(1, writes + 1):
        work = tmp_path / f"n{n}"
        shutil.copytree(template, work, symlinks=True)
        _git.FAULTS.arm(n, err, sticky=sticky)
        reports = _burst(work)
        where = list(_git.FAULTS.failed)
        _git.FAULTS.disarm()
        context = f"fault at write {n}/{writes} ({where[:1]}), reports {reports}"
        assert where, context  # the burst really reached write n
        errors = {outcome for _, outcome in reports if outcome.startswith("ERROR")}
        assert errors, context  # ... and its caller heard of it
        code = "ERROR:disk_full" if err == errno.ENOSPC else "ERROR:io_error"
        assert errors <= {code, "ERROR:init_failed"}, context
        failures_seen.add(where[0].split()[0])
        _check(work, reports, context)
        shutil.rmtree(work)
    # the burst crossed every kind of storage write
    assert {"pack", "ref", "loose", "spool"} - failures_seen <= {"spool"}, failures_seen


# -- a real full disk -------------------------------------------------------------------


def _mount_tmpfs(where: Path, size_kb: int) -> bool:
    where.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return False
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs",
                           str(where)], capture_output=True, check=False)
    return proc.returncode == 0


@pytest.mark.slow
def test_a_really_full_disk_fails_writes_cleanly_and_the_store_recovers(tmp_path: Path) -> None:
    mnt = tmp_path / "small"
    if not _mount_tmpfs(mnt, 4096):
        pytest.skip("cannot mount a size-limited tmpfs here (needs root)")
    try:
        template = _template(tmp_path / "template")
        free_kb = [0, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 1024]
        outcomes = []
        for kb in free_kb:
            root = mnt / f"store-{uuid.uuid4().hex[:6]}"
            shutil.copytree(template, root, symlinks=True)
            ballast = mnt / "ballast"
            _fill(ballast, mnt, leave_kb=kb)
            reports = _burst(root)
            ballast.unlink()
            context = f"{kb} KB free: {reports}"
            # the operator's cue, whichever layer (ours, libgit2, the OS) saw the disk full
            assert {o for _, o in reports if o.startswith("ERROR")} <= {"ERROR:disk_full"}, \
                context
            _check(root, reports, context)
            shutil.rmtree(root)
            failed = sum(outcome.startswith("ERROR") for _, outcome in reports)
            outcomes.append((failed, sum(outcome == "COMMIT" for _, outcome in reports)))
        print(f"(failed, committed) calls per burst at {free_kb} KB free: {outcomes}")
        assert outcomes[0][1] == 0, "a full disk commits nothing"
        assert outcomes[-1][0] == 0, "with room to spare nothing fails"
        assert any(f and c for f, c in outcomes), "some bursts fail part-way"
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)



_COMMIT_PAST_THE_LIMIT = """
import json, sys
from pathlib import Path
from memrepo import _git
from memrepo.errors import StoreError
repo = _git.open_repo(Path(sys.argv[1]))
try:
    oid = _git.create_commit(repo, tree=_git.Oid(hex=sys.argv[2]),
                             parents=[_git.Oid(hex=sys.argv[3])], message=sys.argv[4],
                             author=_git.Author("t", "t@example.invalid"), when=1)
    print(json.dumps({"id": str(oid)}))
except StoreError as exc:
    print(json.dumps({"error": exc.code}))
"""


def _at_most_bytes_per_file(limit: int) -> Any:
    def limit_file_size() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit: EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limit_file_size


def test_a_commit_object_that_cannot_be_written_is_an_error_not_an_id(tmp_path: Path) -> None:
    """libgit2 1.9's ``git_commit_create`` returns success (and the new id) when writing
    the commit object fails; found on a full tmpfs, where a confirmation then moved the
    audit ref's reflog to a commit that was never written. A writer process whose files
    may not grow past 1 KB (RLIMIT_FSIZE) must get an error from create_commit."""
    import json
    import sys

    store = Store.init(tmp_path / "store", durable=True)
    tenant = store.tenant(TENANT, create=True)
    state = tenant.state()
    assert state.main is not None and state.main_tree is not None
    message = os.urandom(3000).hex() + "\n"  # ~3 KB once compressed
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.run(
        [sys.executable, "-c", _COMMIT_PAST_THE_LIMIT, str(tenant.path),
         str(state.main_tree.id), str(state.main), message],
        preexec_fn=_at_most_bytes_per_file(1024), capture_output=True, text=True, env=env,
        check=False)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result == {"error": "io_error"}, result
    # and the same commit, allowed to grow, is written and readable
    oid = _git.create_commit(tenant.repo, tree=state.main_tree.id, parents=[state.main],
                             message=message, author=_git.Author("t", "t@example.invalid"),
                             when=1)
    assert _git.get_commit(tenant.repo, oid).message == message


def _fill(ballast: Path, mount: Path, *, leave_kb: int) -> None:
    """Write a file until only ``leave_kb`` KB of the filesystem stay free."""
    st = os.statvfs(mount)
    free = st.f_bavail * st.f_frsize - leave_kb * 1024
    with ballast.open("wb") as out:
        chunk = b"\0" * 65536
        while free > 0:
            try:
                free -= out.write(chunk[: min(len(chunk), free)])
            except OSError:
                break


# -- durable batch writers killed at random moments -------------------------------------


def _read_log(path: Path) -> tuple[set[str], dict[str, list[str]]]:
    attempts: set[str] = set()
    results: dict[str, list[str]] = defaultdict(list)
    if path.exists():
        for line in path.read_text().splitlines():
            parts = line.split()
            if parts[:1] == ["ATTEMPT"]:
                attempts.update(parts[1:])
            elif parts[:1] == ["RESULT"] and len(parts) == 3:
                results[parts[1]].append(parts[2])
    return attempts, results


@pytest.mark.slow
def test_sigkilled_batch_writers_keep_their_word(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    seed = int(os.environ.get("MEMREPO_CRASH_SEED", random.randrange(2**32)))
    rng = random.Random(seed)
    monkeypatch.setenv("MEMREPO_STALE_LOCK_SECONDS", "0.5")
    store = Store.init(tmp_path / "store", durable=True)
    tenant = store.tenant(TENANT, create=True)
    pool = [remember("pnpm", mid=f"k{i}", author=f"k{i}") for i in range(30)]
    pool += [remember(f"hot{i}", mid=f"kh{i}") for i in range(6)]
    tenant.ingest([Message.model_validate(m) for m, _ in pool])
    by_pid = {_workers.proposal_id(raw): raw for _, raw in pool}
    logs = [tmp_path / f"w{w}.log" for w in range(2)]
    for _round in range(2):
        ready = [CTX.Event() for _ in logs]
        procs = [CTX.Process(target=_workers.batch_crash_writer,
                             args=(str(store.root), [(p, by_pid[p]) for p in
                                                     rng.sample(list(by_pid), 12)],
                                   str(log), ev))
                 for log, ev in zip(logs, ready, strict=True)]
        for proc in procs:
            proc.start()
        try:
            for ev in ready:
                assert ev.wait(60), seed
            for proc in procs:
                time.sleep(rng.uniform(0.05, 0.6))
                os.kill(proc.pid or 0, signal.SIGKILL)
        finally:
            for proc in procs:
                if proc.is_alive():
                    proc.kill()
                proc.join()
    reported: dict[str, list[str]] = defaultdict(list)
    for log in logs:
        for pid, decisions in _read_log(log)[1].items():
            reported[pid] += decisions
    context = f"seed {seed} (replay with MEMREPO_CRASH_SEED={seed}): {dict(reported)}"
    fsck(tenant.path)
    after = Store(store.root, durable=True)
    repo = after.tenant(TENANT)
    state = repo.state()
    on_main = [t["Proposal-Id"] for _, t in main_chain(repo.repo) if "Proposal-Id" in t]
    assert len(on_main) == len(set(on_main)), context
    for pid, decisions in reported.items():
        record = repo.record(pid, state)
        assert record is not None, (pid, context)
        if "COMMIT" in decisions:
            assert pid in on_main, (pid, context)
    attempted = set().union(*(_read_log(log)[0] for log in logs))
    assert set(on_main) <= attempted, context  # nothing on main that nobody sent
    msg, raw = remember("npm", mid="fresh", author="fresh")
    repo.ingest([Message.model_validate(msg)])
    assert gate.submit(after, raw, now=NOW).decision is DecisionKind.COMMIT, context
    for pid in reported:
        assert gate.submit(after, by_pid[pid], now=NOW).decision is DecisionKind.DUPLICATE
    fsck(tenant.path)


def test_store_errors_are_memrepo_errors() -> None:
    assert issubclass(StoreError, MemrepoError)
    assert isinstance(_git.io_error(OSError(errno.EIO, "I/O error"), "x"), MemrepoError)


@pytest.mark.parametrize(("exc", "code"), [
    (OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), "disk_full"),
    (OSError(errno.EDQUOT, os.strerror(errno.EDQUOT)), "disk_full"),
    (OSError(errno.EIO, os.strerror(errno.EIO)), "io_error"),
    # libgit2's OS errors, as pygit2 raises them: no errno, the words in the message
    (OSError(f"failed to write out file: {os.strerror(errno.ENOSPC)}"), "disk_full"),
    (OSError("failed to write out file"), "io_error"),
])
def test_a_full_disk_is_named_so_whoever_reports_it(exc: OSError, code: str) -> None:
    assert _git.io_error(exc, "cannot write").code == code


def test_libgit2_write_errors_name_a_full_disk() -> None:
    import pygit2

    full = pygit2.GitError(f"failed to write out file: {os.strerror(errno.ENOSPC)}")
    assert _git.write_error(full, "cannot update main", "ref_update_failed").code == "disk_full"
    other = pygit2.GitError("failed to lock file 'refs/heads/main.lock' for writing")
    assert _git.write_error(other, "cannot update main", "ref_update_failed").code == \
        "ref_update_failed"
