"""The proposal record index: every answer equals walking the trees, whatever happened to
the file, at any state asked about, from several processes at once."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from pathlib import Path
from typing import Any

import pygit2
import pytest

import _workers
from conftest import NOW, said
from memrepo import _git, layout, lifecycle, recordindex
from memrepo.proposal import DecisionKind
from memrepo.recordindex import INDEX_FILE, index_files
from memrepo.store import State, Store, TenantRepo

CTX = multiprocessing.get_context("spawn")


def walked(tenant: TenantRepo, pid: str, state: State) -> tuple[dict[str, Any], bool] | None:
    """The record as the trees hold it (what the index must agree with)."""
    path = layout.proposal_path(pid)
    for tree, on_main in ((state.main_tree, True), (state.audit_tree, False)):
        data = _git.lookup_blob(tenant.repo, tree, path)
        if data is not None:
            return json.loads(data), on_main
    return None


def indexed(tenant: TenantRepo, pid: str, state: State) -> tuple[dict[str, Any], bool] | None:
    rec = tenant.record(pid, state)
    return None if rec is None else (rec.data, rec.on_main)


def rows(tenant: TenantRepo) -> int:
    with sqlite3.connect(tenant.path / INDEX_FILE) as db:
        return int(db.execute("SELECT count(*) FROM records").fetchone()[0])


def history(store: Store) -> tuple[list[str], list[State]]:
    """Commits, parked proposals, a confirmation and a decline; the states after each."""
    tenant = store.tenant("t1", create=True)
    states = [tenant.state()]
    pids = []
    steps = [
        ("m1", "Remember that I use pnpm for packages.", "Remember that I use pnpm", "pnpm",
         {}),
        ("m2", "Remember that I use yarn for packages.", "Remember that I use yarn", "yarn",
         {}),   # replaces pnpm: parked on the audit ref
        ("m3", "Remember that my editor is Helix.", "my editor is Helix", "Helix",
         {"key": "editor"}),
        ("m4", "Remember that I use bun for packages.", "Remember that I use bun", "bun",
         {"confidence": 0.5}),
    ]
    for mid, text, quote, value, extra in steps:
        d = said(store, mid, text, quote, value, **extra)
        assert d.proposal_id is not None
        pids.append(d.proposal_id)
        states.append(tenant.state())
    first = tenant.record(pids[1], tenant.state())
    assert first is not None and not first.on_main
    lifecycle.confirm(store, "t1", pids[1], first.data["payloadHash"], approver="u1", now=NOW)
    states.append(tenant.state())
    lifecycle.decline(store, "t1", pids[3], operator="u1", now=NOW)
    states.append(tenant.state())
    return pids, states


def test_every_answer_is_the_trees_answer_at_every_state(store: Store) -> None:
    pids, states = history(store)
    tenant = store.tenant("t1")
    unknown = "f" * 64
    for state in [*states, *reversed(states)]:  # forwards, then back in time
        for pid in [*pids, unknown]:
            assert indexed(tenant, pid, state) == walked(tenant, pid, state), (pid, state)
    now = tenant.state()
    assert indexed(tenant, pids[1], now) is not None
    assert indexed(tenant, pids[1], now)[1] is True   # confirmed: on main now
    assert indexed(tenant, pids[1], states[2])[1] is False  # parked back then
    assert indexed(tenant, unknown, now) is None
    assert rows(tenant) == len(pids)
    # the index, not the trees, answered: named by its commits alone, with no trees to
    # walk, a state still finds every record
    bare = State(now.main, now.audit, None, None)
    for pid in pids:
        assert indexed(tenant, pid, bare) == walked(tenant, pid, now)
    assert indexed(tenant, unknown, bare) is None


def test_a_fresh_handle_reads_what_another_indexed_and_catches_up(store: Store) -> None:
    pids, _ = history(store)
    first = store.tenant("t1")
    assert indexed(first, pids[0], first.state()) is not None
    d = said(store, "m5", "Remember that my timezone is Europe/Berlin.",
             "my timezone is Europe/Berlin", "Europe/Berlin", key="timezone")
    assert d.decision is DecisionKind.COMMIT and d.proposal_id
    other = Store(store.root, durable=False).tenant("t1")  # another process, as it were
    state = other.state()
    for pid in [*pids, d.proposal_id]:
        assert indexed(other, pid, state) == walked(other, pid, state)
    assert rows(other) == len(pids) + 1


def test_handles_asking_about_different_commits_each_get_their_own_answer(
        store: Store) -> None:
    """Two handles (as two processes would) share the file; each lookup answers as of the
    commits it names, whoever moved the file in between."""
    pids, states = history(store)
    a = store.tenant("t1")
    b = Store(store.root, durable=False).tenant("t1")
    before, now = states[2], states[-1]  # pids[1] parked, then confirmed
    for _ in range(3):
        for handle, state in ((a, before), (b, now), (a, before), (b, now), (a, now),
                              (b, before)):
            for pid in pids:
                assert indexed(handle, pid, state) == walked(handle, pid, state)


@pytest.mark.parametrize("damage", ["deleted", "garbage", "wrong row", "missing row",
                                    "foreign meta", "old layout", "a folder in its place"])
def test_a_damaged_index_never_changes_an_answer(store: Store, damage: str) -> None:
    pids, _ = history(store)
    tenant = store.tenant("t1")
    state = tenant.state()
    assert indexed(tenant, pids[0], state) is not None  # builds the file
    path = tenant.path / INDEX_FILE
    tenant._records.close()
    if damage == "deleted":
        path.unlink()
    elif damage == "garbage":
        for suffix in ("-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        path.write_bytes(b"not a database at all" * 100)
    elif damage == "wrong row":  # the row of pids[0] names the record of pids[2]
        with sqlite3.connect(path) as db:
            other = db.execute("SELECT main FROM records WHERE pid = ?",
                               (bytes.fromhex(pids[2]),)).fetchone()
            db.execute("UPDATE records SET main = ? WHERE pid = ?",
                       (other[0], bytes.fromhex(pids[0])))
    elif damage == "missing row":  # the file still says it reflects the refs
        with sqlite3.connect(path) as db:
            db.execute("DELETE FROM records WHERE pid = ?", (bytes.fromhex(pids[0]),))
    elif damage == "foreign meta":  # indexed as of a commit this repository never had
        with sqlite3.connect(path) as db:
            db.execute("UPDATE meta SET commit_id = ?", ("1" * 40,))
    elif damage == "a folder in its place":  # unusable, and not ours to remove
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        path.mkdir()
    else:  # written by a version whose rows this one cannot read
        with sqlite3.connect(path) as db:
            db.execute("DELETE FROM records")
            db.execute("PRAGMA user_version=0")
    fresh = Store(store.root, durable=False).tenant("t1")
    for pid in pids:
        assert indexed(fresh, pid, state) == walked(fresh, pid, state), damage
    if damage == "a folder in its place":
        assert path.is_dir()  # left alone; every lookup walked the trees
    elif damage not in ("wrong row", "missing row"):  # those only a verify repairs
        assert rows(fresh) == len(pids)  # rebuilt or caught up, and in use again


def test_inside_a_batch_records_come_from_the_batch(store: Store) -> None:
    pids, _ = history(store)
    tenant = store.tenant("t1")
    pid = "ab" * 32
    record = json.dumps({"proposalId": pid, "decision": "COMMIT"}).encode()
    with tenant.staged():
        blob = _git.write_blob(tenant.repo, record)
        assert tenant.commit(tenant.state(), main={layout.proposal_path(pid): blob},
                             message="staged record\n",
                             author=_git.Author("t", "t@example.invalid"), when=NOW)
        staged = tenant.state()
        assert indexed(tenant, pid, staged) == ({"proposalId": pid, "decision": "COMMIT"},
                                                True)
        assert indexed(tenant, pids[0], staged) == walked(tenant, pids[0], staged)
    assert indexed(tenant, pid, tenant.state()) is None  # never published


def forget_index(tenant: TenantRepo) -> None:
    tenant._records.close()
    for path in index_files(tenant.path):
        path.unlink(missing_ok=True)


Table = tuple[dict[str, str], dict[str, tuple[str | None, ...]]]


def table(tenant: TenantRepo) -> Table:
    """What the file holds: the commits it reflects and every row, as hex."""
    with sqlite3.connect(tenant.path / INDEX_FILE) as db:
        meta = dict(db.execute("SELECT ref, commit_id FROM meta").fetchall())
        found = {pid.hex(): tuple(None if b is None else b.hex() for b in blobs)
                 for pid, *blobs in db.execute("SELECT pid, main, audit FROM records")}
    return meta, found


def expected_table(tenant: TenantRepo, pids: list[str]) -> Table:
    """What the file must hold for the refs on disk, found by walking the trees."""
    state = tenant.state()
    rows_ = {}
    for pid in pids:
        blobs = tuple(None if (o := _git.lookup(tree, layout.proposal_path(pid))) is None
                      else str(o.id) for tree in (state.main_tree, state.audit_tree))
        if blobs != (None, None):
            rows_[pid] = blobs
    return {layout.MAIN_REF: str(state.main), layout.AUDIT_REF: str(state.audit)}, rows_


def test_refresh_builds_the_index_so_no_lookup_has_to(store: Store) -> None:
    pids, _ = history(store)
    tenant = store.tenant("t1")
    forget_index(tenant)  # as if no lookup had ever run
    check = tenant.refresh_record_index()
    assert check is not None and (check.records, check.verified, check.repaired) == (
        len(pids), False, False)
    assert table(tenant) == expected_table(tenant, pids)
    check = tenant.refresh_record_index(verify=True)
    assert check is not None and (check.verified, check.repaired) == (True, False)
    assert table(tenant) == expected_table(tenant, pids)


@pytest.mark.parametrize("damage", ["wrong row", "extra row", "missing row", "meta ahead"])
def test_verifying_finds_and_rebuilds_rows_that_differ_from_the_trees(
        store: Store, damage: str) -> None:
    """Damage a catch-up cannot see (the file still says it reflects the refs) is found
    only by comparing with the trees."""
    pids, states = history(store)
    tenant = store.tenant("t1")
    assert tenant.refresh_record_index() is not None
    with sqlite3.connect(tenant.path / INDEX_FILE) as db:
        if damage == "wrong row":
            db.execute("UPDATE records SET main = (SELECT main FROM records WHERE pid = ?)"
                       " WHERE pid = ?", (bytes.fromhex(pids[2]), bytes.fromhex(pids[0])))
        elif damage == "extra row":
            db.execute("INSERT INTO records VALUES (?, ?, NULL)", (b"\xab" * 32, b"\x01" * 20))
        elif damage == "missing row":
            db.execute("DELETE FROM records WHERE pid = ?", (bytes.fromhex(pids[3]),))
        else:  # rows of an earlier state under meta naming the latest
            db.execute("DELETE FROM records")
            db.execute("DELETE FROM meta")
    if damage == "meta ahead":
        assert indexed(tenant, pids[0], states[1]) == walked(tenant, pids[0], states[1])
        with sqlite3.connect(tenant.path / INDEX_FILE) as db:
            for ref, commit in ((layout.MAIN_REF, states[-1].main),
                                (layout.AUDIT_REF, states[-1].audit)):
                db.execute("UPDATE meta SET commit_id = ? WHERE ref = ?", (str(commit), ref))
    damaged = table(tenant)
    assert damaged != expected_table(tenant, pids)
    check = tenant.refresh_record_index()
    assert check is not None and not check.repaired and table(tenant) == damaged
    check = tenant.refresh_record_index(verify=True)
    assert check is not None and (check.verified, check.repaired) == (True, True)
    assert table(tenant) == expected_table(tenant, pids)
    check = tenant.refresh_record_index(verify=True)
    assert check is not None and not check.repaired


def test_refresh_of_an_unusable_index_says_so(store: Store) -> None:
    pids, _ = history(store)
    tenant = store.tenant("t1")
    forget_index(tenant)
    (tenant.path / INDEX_FILE).mkdir()
    assert tenant.refresh_record_index(verify=True) is None
    assert indexed(tenant, pids[0], tenant.state()) == walked(tenant, pids[0], tenant.state())


def test_building_from_nothing_walks_what_a_diff_would_list(tmp_path: Path) -> None:
    """The build walks the tree instead of diffing it from nothing (memory); both must
    list the same entries, odd ones included."""
    repo = pygit2.init_repository(str(tmp_path / "r.git"), bare=True)
    blob = repo.create_blob(b"{}")
    inner = repo.TreeBuilder()
    inner.insert("a" * 64 + ".json", blob, pygit2.GIT_FILEMODE_BLOB)
    inner.insert("b" * 64 + ".json", blob, pygit2.GIT_FILEMODE_BLOB_EXECUTABLE)
    inner.insert("c" * 64 + ".json", blob, pygit2.GIT_FILEMODE_LINK)
    inner.insert("d" * 64 + ".json", blob, pygit2.GIT_FILEMODE_COMMIT)
    inner.insert("notes.txt", blob, pygit2.GIT_FILEMODE_BLOB)
    inner.insert("not-hex.json", blob, pygit2.GIT_FILEMODE_BLOB)
    mid = repo.TreeBuilder()
    mid.insert("aa", inner.write(), pygit2.GIT_FILEMODE_TREE)
    mid.insert("e" * 64 + ".json", blob, pygit2.GIT_FILEMODE_BLOB)
    tree = repo.get(mid.write())
    assert isinstance(tree, pygit2.Tree)
    walked_entries = sorted(recordindex._entries(repo, tree))
    diffed = sorted((c.path, c.new, c.new_mode)
                    for c in _git.changed_entries(repo, None, tree))
    assert walked_entries == diffed and len(walked_entries) == 7
    assert sorted(recordindex._rows(repo, None, tree)) == sorted(
        [(bytes.fromhex("a" * 64), blob.raw), (bytes.fromhex("e" * 64), blob.raw),
         *((bytes.fromhex(c * 64), None) for c in "bcd")])


@pytest.mark.slow
def test_processes_building_the_index_at_once_agree(tmp_path: Path) -> None:
    store = Store.init(tmp_path / "store", durable=False)
    pids, _ = history(store)
    tenant = store.tenant("t1")
    expected = {pid: (w[0]["proposalId"], w[1]) if (w := walked(tenant, pid, tenant.state()))
                else None for pid in pids}
    barrier = CTX.Barrier(3)
    results = CTX.Queue()
    procs = [CTX.Process(target=_workers.look_up_records,
                         args=(str(store.root), pids, barrier, results)) for _ in range(3)]
    for p in procs:
        p.start()
    answers = [results.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    assert all(a == expected for a in answers), answers
    assert rows(tenant) == len(pids)
