"""Group commit: batches decided in order, each proposal its own commit, one pack and one
compare-and-swap per batch, each caller told its own result; and durability (fsyncs
checked with strace where it is installed)."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import _workers
from _workers import NOW, TENANT, fsck, main_chain, remember
from memrepo import _git, gate, groupcommit, layout
from memrepo.errors import StoreError
from memrepo.proposal import DecisionKind, Message, parse_proposal
from memrepo.store import Batch, Store, TenantRepo

CTX = multiprocessing.get_context("spawn")


@pytest.fixture(autouse=True)
def _no_auto_maintenance(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_AUTO_MAINTENANCE", "off")


def _packs(tenant: TenantRepo) -> set[str]:
    return {p.name for p in (tenant.path / "objects" / "pack").glob("pack-*.idx")}


def _loose(tenant: TenantRepo) -> set[str]:
    return {str(p) for p in (tenant.path / "objects").glob("??/*")}


def _reflog(tenant: TenantRepo, ref: str) -> list[str]:
    path = tenant.path / "logs" / ref
    return path.read_text().splitlines() if path.exists() else []


def _setup(store: Store, pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> TenantRepo:
    tenant = store.tenant(TENANT, create=True)
    tenant.ingest([Message.model_validate(m) for m, _ in pairs])
    return tenant


NEW = [remember("pnpm", mid=f"n{i}", author=f"s{i}") for i in range(5)]


def test_a_batch_is_one_pack_and_one_ref_move_with_a_commit_per_proposal(store: Store) -> None:
    tenant = _setup(store, NEW)
    packs, loose, log = _packs(tenant), _loose(tenant), _reflog(tenant, layout.MAIN_REF)
    before = tenant.state().main

    decisions = gate.submit_many(store, [raw for _, raw in NEW], now=NOW)

    assert [d.decision for d in decisions] == [DecisionKind.COMMIT] * len(NEW)
    assert [d.proposal_id for d in decisions] == [_workers.proposal_id(r) for _, r in NEW]
    chain = main_chain(tenant.repo)
    new = [(c, t) for c, t in chain if "Proposal-Id" in t]
    assert [t["Proposal-Id"] for _, t in new] == [d.proposal_id for d in decisions]
    assert [str(c.id) for c, _ in new] == [d.commit for d in decisions]  # own commit each
    assert new[0][0].parent_ids == [before]  # first-parent ancestors of the last one
    assert len(_packs(tenant) - packs) == 1 and _loose(tenant) == loose
    assert len(_reflog(tenant, layout.MAIN_REF)) == len(log) + 1  # one ref move
    fsck(tenant.path)


def test_a_batch_decides_like_the_same_proposals_one_by_one(tmp_path: Path) -> None:
    """Same inputs, one store submitting one by one, one submitting one batch: the same
    answers, the same commits on main and the same audit tree."""
    pairs = [remember("yarn", mid="b0"), remember("pnpm", mid="b1"),           # replace
             remember("Neovim", mid="b2", key="editor"),
             remember("bun", mid="b3", author="u2", confidence=0.5),           # doubtful
             remember("deno", mid="b4", author="u3")]
    raws: list[Any] = [raw for _, raw in pairs]
    raws.insert(3, raws[2])                                                   # a replay
    raws.append({"tenantId": TENANT, "subjectId": "u1"})                       # invalid
    raws.append(dict(raws[-2], tenantId="nobody"))                             # no tenant
    one = Store.init(tmp_path / "one", durable=False)
    _setup(one, pairs)
    # The second store is a copy of the first, so both start from the same commits (a
    # tenant's first commits carry the wall-clock time they were made at).
    shutil.copytree(tmp_path / "one", tmp_path / "many")
    one, many = Store(tmp_path / "one", durable=False), Store(tmp_path / "many", durable=False)
    singly = [gate.submit(one, raw, now=NOW) for raw in raws]
    batched = gate.submit_many(many, raws, now=NOW)

    assert [d.to_json() for d in batched] == [d.to_json() for d in singly]
    assert Counter(d.decision for d in batched)[DecisionKind.DUPLICATE] == 1
    a, b = one.tenant(TENANT).state(), many.tenant(TENANT).state()
    assert a.main == b.main  # the same commits, byte for byte
    assert a.audit_tree is not None and b.audit_tree is not None
    assert a.audit_tree.id == b.audit_tree.id


def test_a_batch_that_loses_the_race_is_decided_again_as_a_whole(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = [remember("pnpm", mid="m1"), remember("Neovim", mid="m2", key="editor")]
    theirs = remember("yarn", mid="t1", author="u1")
    tenant = _setup(store, [*mine, theirs])
    real_publish = Batch.publish
    landed: list[Any] = []

    def publish_after_competitor(self: Batch, **kwargs: Any) -> bool:
        if not landed:  # another writer commits between the decisions and the publish
            landed.append(None)
            landed[0] = gate.submit(Store(store.root, durable=False), theirs[1], now=NOW)
        return real_publish(self, **kwargs)

    monkeypatch.setattr(Batch, "publish", publish_after_competitor)
    decisions = gate.submit_many(store, [raw for _, raw in mine], now=NOW)

    assert landed[0].decision is DecisionKind.COMMIT
    assert [d.decision for d in decisions] == [DecisionKind.CONFIRM_REPLACE, DecisionKind.COMMIT]
    assert all("re_decided_after_race" in d.reasons for d in decisions)
    chain = [t.get("Proposal-Id") for _, t in main_chain(tenant.repo)]
    assert chain[-2:] == [landed[0].proposal_id, decisions[1].proposal_id]
    fsck(tenant.path)


def test_staged_objects_stay_in_memory_until_published(store: Store) -> None:
    tenant = store.tenant(TENANT, create=True)
    files = {p for p in tenant.path.rglob("*") if p.is_file()}
    with tenant.staged():
        state = tenant.state()
        blob = tenant.blob({"x": 1})
        assert tenant.commit(state, main={"x.json": blob}, message="x\n") is not None
        assert tenant.state().main != state.main  # the batch's tip moved ...
        assert _git.resolve(tenant.repo, layout.MAIN_REF) == state.main  # ... main did not
        assert json.loads(_git.lookup_blob(tenant.repo, tenant.state().main_tree, "x.json")
                          or b"") == {"x": 1}
        assert {p for p in tenant.path.rglob("*") if p.is_file()} == files
    # left without publishing: nothing was written
    assert {p for p in tenant.path.rglob("*") if p.is_file()} == files
    assert tenant.batch is None and tenant.repo is tenant._disk
    with pytest.raises(StoreError) as err, tenant.staged(), tenant.staged():
        pass
    assert err.value.code == "nested_batch"


def test_a_caller_alone_is_decided_at_once(store: Store, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    tenant = _setup(store, NEW[:2])
    slept: list[float] = []
    monkeypatch.setattr(groupcommit.time, "sleep", slept.append)
    packs = _packs(tenant)
    for _, raw in NEW[:2]:
        assert gate.submit(store, raw, now=NOW).decision is DecisionKind.COMMIT
    assert slept == []  # no window, no polling: the lock was free
    assert len(_packs(tenant) - packs) == 2
    assert not list((tenant.path / groupcommit.SPOOL_DIR).glob("*"))


def test_a_leader_answers_waiting_callers_and_drops_the_dead(store: Store) -> None:
    pairs = NEW[:3]
    tenant = _setup(store, pairs)
    spool = groupcommit._Spool(tenant.path)
    waiting = spool.put(groupcommit.Item(parse_proposal(pairs[0][1]), NOW, False))
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    orphan = spool.put(groupcommit.Item(parse_proposal(pairs[1][1]), NOW, False))
    request = spool.dir / f"{orphan}.req"
    body = json.loads(request.read_text())
    request.write_text(json.dumps(dict(body, pid=int(dead.stdout))))

    mine = gate.submit(store, pairs[2][1], now=NOW)  # leads: takes the waiting request too

    assert mine.decision is DecisionKind.COMMIT
    answer = spool.take_result(waiting)
    assert not isinstance(answer, BaseException) and answer is not None
    assert answer.decision is DecisionKind.COMMIT
    assert answer.proposal_id == _workers.proposal_id(pairs[0][1])
    assert not request.exists() and spool.take_result(orphan) is None  # dropped unanswered
    on_main = {t.get("Proposal-Id") for _, t in main_chain(tenant.repo)}
    assert _workers.proposal_id(pairs[1][1]) not in on_main
    assert list(spool.dir.iterdir()) == []


def test_waiting_callers_get_the_error_of_a_failed_batch(store: Store) -> None:
    tenant = _setup(store, NEW[:2])
    spool = groupcommit._Spool(tenant.path)
    waiting = spool.put(groupcommit.Item(parse_proposal(NEW[0][1]), NOW, False))

    def full_disk(*_: Any) -> list[groupcommit.Result]:
        raise StoreError("cannot write pack: No space left on device", code="disk_full")

    with pytest.raises(StoreError) as err:
        groupcommit.lead(tenant, [groupcommit.Item(parse_proposal(NEW[1][1]), NOW, False)],
                         full_disk)
    assert err.value.code == "disk_full"
    answer = spool.take_result(waiting)
    assert isinstance(answer, StoreError) and answer.code == "disk_full"


@pytest.mark.slow
def test_concurrent_callers_in_several_processes_share_batches(tmp_path: Path) -> None:
    store = Store.init(tmp_path / "store", durable=True)
    processes, threads, each = 3, 6, 2
    pairs = [remember("pnpm", mid=f"c{i}", author=f"c{i}")
             for i in range(processes * threads * each)]
    tenant = _setup(store, pairs)
    packs = _packs(tenant)
    raws = [raw for _, raw in pairs]
    barrier, results = CTX.Barrier(processes * threads), CTX.Queue()
    per_thread = [raws[i::processes * threads] for i in range(processes * threads)]
    reports = _workers.run_processes(
        CTX, _workers.submit_durable_in_threads,
        [(str(store.root), per_thread[p * threads:(p + 1) * threads], barrier, results)
         for p in range(processes)], results, timeout=120)

    assert Counter(r[1] for r in reports) == {"COMMIT": len(raws)}, reports
    on_main = [t["Proposal-Id"] for _, t in main_chain(tenant.repo) if "Proposal-Id" in t]
    assert sorted(on_main) == sorted(r[0] for r in reports)
    batches = len(_packs(tenant) - packs)
    assert batches < len(raws), f"{batches} packs for {len(raws)} commits: no batch formed"
    assert not [p for p in (tenant.path / groupcommit.SPOOL_DIR).iterdir()]
    fsck(tenant.path)


# -- durability, checked with strace ------------------------------------------------------

_DURABLE_SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
from _workers import remember, NOW, TENANT
from memrepo import gate
from memrepo.proposal import Message
from memrepo.store import Store

store = Store.init({root!r}, durable={durable})
tenant = store.tenant(TENANT, create=True)
pairs = [remember("pnpm", mid=f"d{{i}}", author=f"d{{i}}") for i in range(3)]
tenant.ingest([Message.model_validate(m) for m, _ in pairs])
gate.submit(store, pairs[0][1], now=NOW)
Store({root!r} + "-other", durable=not {durable})  # flips libgit2's process-wide switch
sys.stderr.write("MARK-BEGIN\\n"); sys.stderr.flush()
decision = gate.submit(store, pairs[1][1], now=NOW)
sys.stderr.write("MARK-END " + decision.decision.value + "\\n"); sys.stderr.flush()
"""


def _trace(tmp_path: Path, durable: bool) -> list[str]:
    root = tmp_path / f"store-{durable}"
    script = tmp_path / "durable.py"
    script.write_text(textwrap.dedent(_DURABLE_SCRIPT.format(
        tests=str(Path(__file__).parent), root=str(root), durable=durable)))
    out = tmp_path / f"trace-{durable}"
    env = dict(os.environ, MEMREPO_AUTO_MAINTENANCE="off")
    subprocess.run(["strace", "-f", "-o", str(out), "-e",
                    "trace=openat,fsync,fdatasync,rename,link,write,close", sys.executable,
                    str(script)], check=True, env=env, capture_output=True)
    lines = out.read_text().splitlines()
    begin = next(i for i, ln in enumerate(lines) if "MARK-BEGIN" in ln)
    end = next(i for i, ln in enumerate(lines) if "MARK-END COMMIT" in ln)
    return [ln.split(None, 1)[1] for ln in lines[begin:end] if "ENOENT" not in ln]


def _fd_of(lines: list[str], fragment: str) -> list[tuple[int, str]]:
    """(line index, fd) of each successful openat of a path containing ``fragment``."""
    out = []
    for i, ln in enumerate(lines):
        if ln.startswith("openat(") and fragment in ln and "= " in ln:
            fd = ln.rsplit("= ", 1)[1].split()[0]
            if fd.isdigit():
                out.append((i, fd))
    return out


def _fsynced_after(lines: list[str], start: int, fd: str) -> int | None:
    for i in range(start + 1, len(lines)):
        if lines[i].startswith((f"fsync({fd})", f"fdatasync({fd})")):
            return i
        if lines[i].startswith(f"close({fd})"):
            return None
    return None


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_a_durable_commit_is_on_stable_storage_before_it_is_reported(tmp_path: Path) -> None:
    lines = _trace(tmp_path, durable=True)
    text = "\n".join(lines)
    # the pack, then its index: written, fsynced, renamed into place; then the directory
    for kind in ("pack", "idx"):
        (opened, fd), = _fd_of(lines, f"tmp_{kind}_memrepo_")
        synced = _fsynced_after(lines, opened, fd)
        renamed = next(i for i, ln in enumerate(lines) if ln.startswith("rename(")
                       and f"tmp_{kind}_memrepo_" in ln and f'.{kind}")' in ln)
        assert synced is not None and synced < renamed, (kind, text)
    pack_dir = [i for i, fd in _fd_of(lines, "objects/pack\"")
                if _fsynced_after(lines, i, fd) is not None]
    assert pack_dir, text
    # the ref: the lock file fsynced before it replaces the ref, the refs dir after
    (locked, fd), = _fd_of(lines, "refs/heads/main.lock")
    synced = _fsynced_after(lines, locked, fd)
    moved = next(i for i, ln in enumerate(lines) if ln.startswith(("rename(", "link("))
                 and "refs/heads/main.lock" in ln and ln.rstrip().endswith("= 0"))
    assert synced is not None and synced < moved, text
    heads = [i for i, fd in _fd_of(lines, "refs/heads\"") if i > moved
             and _fsynced_after(lines, i, fd) is not None]
    assert heads, text
    assert max(pack_dir) < moved  # objects durable before the ref names them


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_a_non_durable_store_does_not_fsync(tmp_path: Path) -> None:
    lines = _trace(tmp_path, durable=False)
    assert not [ln for ln in lines if ln.startswith(("fsync(", "fdatasync("))], lines


def test_ingest_takes_its_turn_with_batches(store: Store) -> None:
    tenant = store.tenant(TENANT, create=True)
    msg = Message.model_validate(NEW[0][0])
    done = threading.Event()
    with groupcommit.exclusive(tenant.path):
        worker = threading.Thread(target=lambda: (Store(store.root, durable=False)
                                                  .tenant(TENANT).ingest([msg]), done.set()))
        worker.start()
        time.sleep(0.2)
        assert not done.is_set()  # waits for the batch holding the lock
    worker.join(10)
    assert done.is_set() and tenant.message(msg.message_id, tenant.state()) == msg
