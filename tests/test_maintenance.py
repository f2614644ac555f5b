"""`memrepo maintenance`: pack, clean up, recover stale locks, verify, report; the automatic
light pass; and a layout whose rewritten folders stay small as a tenant grows."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import _workers
from _workers import NOW, TENANT, fsck, main_chain, remember
from memrepo import _git, gate, layout, maintenance
from memrepo.cli import cli
from memrepo.proposal import DecisionKind, Message
from memrepo.store import Store, TenantRepo

CTX = multiprocessing.get_context("spawn")


@pytest.fixture(autouse=True)
def _no_auto_maintenance(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_AUTO_MAINTENANCE", "off")


def _commits(store: Store, n: int, tag: str = "f") -> TenantRepo:
    pairs = [remember("pnpm", mid=f"{tag}{i}", author=f"{tag}{i}") for i in range(n)]
    tenant = store.tenant(TENANT, create=True)
    tenant.ingest([Message.model_validate(m) for m, _ in pairs])
    for _, raw in pairs:  # one by one: one small pack each
        assert gate.submit(store, raw, now=NOW).decision is DecisionKind.COMMIT
    return tenant


def _hash_object(path: Path, data: bytes) -> str:
    return subprocess.run(["git", "--git-dir", str(path), "hash-object", "-w", "--stdin"],
                          input=data, capture_output=True, check=True).stdout.decode().strip()


def _exists(path: Path, oid: str) -> bool:
    return subprocess.run(["git", "--git-dir", str(path), "cat-file", "-e", oid],
                          capture_output=True, check=False).returncode == 0


def test_full_pass_packs_cleans_recovers_verifies_and_reports(store: Store) -> None:
    tenant = _commits(store, 12)
    loose = _hash_object(tenant.path, b"unreachable, but young\n")  # e.g. a batch in flight
    old = time.time() - 3600
    temp = tenant.path / "objects" / "tmp_object_git2_x1"
    temp.write_bytes(b"partial")
    os.utime(temp, (old, old))
    stale = tenant.path / "refs" / "heads" / "main.lock"
    stale.write_text("0" * 40 + "\n")
    os.utime(stale, (old, old))
    fresh = tenant.path / "refs" / "tags" / "t.lock"  # a live git process's, say
    fresh.parent.mkdir(parents=True, exist_ok=True)
    fresh.write_text("x\n")
    before = maintenance.sizes(tenant.path)
    assert before.packs >= 12

    (report,) = maintenance.run(store, [TENANT])

    assert report.before.packs == before.packs
    assert report.after.packs <= 2 and report.after.loose_objects == 0  # one (+ cruft)
    assert report.removed_temp_files == 1 and not temp.exists()
    assert report.recovered_ref_locks == ["refs/heads/main"] and not stale.exists()
    assert fresh.exists()
    assert report.packed_refs and report.repacked and report.fsck_ok, report.fsck_errors
    assert report.fact_versions == 12
    assert report.bytes_per_fact_version is not None and report.bytes_per_fact_version < 8192
    assert _exists(tenant.path, loose), "an unreachable object younger than 2 weeks was dropped"
    # the record index is built by the pass (no lookup ran yet) and checked with fsck
    assert report.record_index is not None
    assert (report.record_index.records, report.record_index.verified,
            report.record_index.repaired) == (12, True, False)
    assert report.before.index_bytes == 0 and report.after.index_bytes > 0
    data = report.to_json()
    assert data["after"]["packs"] == report.after.packs and data["fsckOk"] is True
    assert data["recordIndex"] == {"records": 12, "verified": True, "repaired": False}
    # everything still reads and writes
    fresh.unlink()
    assert len(main_chain(tenant.repo)) == 13
    msg, raw = remember("bun", mid="later", author="later")
    tenant.ingest([Message.model_validate(msg)])
    assert gate.submit(store, raw, now=NOW).decision is DecisionKind.COMMIT
    fsck(tenant.path)


def test_automatic_light_pass_keeps_the_pack_count_down(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_AUTO_MAINTENANCE", "inline")
    monkeypatch.setattr(maintenance, "AUTO_EVERY", 2)
    monkeypatch.setattr(maintenance, "AUTO_PACKS", 4)
    tenant = _commits(store, 16)
    packs = maintenance.sizes(tenant.path).packs
    assert packs <= 6, packs  # without it: one pack per commit, 17 or more
    fsck(tenant.path)


def test_light_pass_in_the_background(store: Store) -> None:
    tenant = _commits(store, 6)
    assert maintenance.spawn_light(tenant.path)
    lock = tenant.path / maintenance.LOCK_NAME
    assert not maintenance.spawn_light(tenant.path)  # one at a time
    deadline = time.monotonic() + 30
    while lock.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not lock.exists()
    assert maintenance.sizes(tenant.path).packs == 1
    fsck(tenant.path)


def test_cli_maintenance(store: Store) -> None:
    _commits(store, 3)
    runner = CliRunner()
    base = ["--store", str(store.root), "--no-fsync", "maintenance"]
    result = runner.invoke(cli, [*base, "--tenant", TENANT, "--json"])
    assert result.exit_code == 0, result.output
    (data,) = json.loads(result.output)
    assert data["tenantId"] == TENANT and data["fsckOk"] is True
    assert data["factVersions"] == 3 and data["after"]["looseObjects"] == 0
    assert data["recordIndex"] == {"records": 3, "verified": True, "repaired": False}
    result = runner.invoke(cli, [*base, "--no-count"])
    assert result.exit_code == 0, result.output
    assert "fsck: ok" in result.output and "pack(s)" in result.output
    assert "record index: 3 record(s)" in result.output
    assert "verified against the trees" in result.output
    (data,) = json.loads(runner.invoke(cli, [*base, "--json", "--no-fsck"]).output)
    assert data["after"]["indexBytes"] > 0
    assert data["recordIndex"] == {"records": 3, "verified": False, "repaired": False}
    result = runner.invoke(cli, [*base, "--fast", "--no-fsck", "--no-count"])
    assert result.exit_code == 0 and "fsck" not in result.output, result.output
    result = runner.invoke(cli, [*base, "--light"])
    assert result.exit_code == 0 and "light pass done" in result.output
    result = runner.invoke(cli, ["maintenance", "--help"])
    assert result.exit_code == 0 and "Safe while writers run" in result.output


@pytest.mark.slow
def test_maintenance_is_safe_while_writers_run(tmp_path: Path) -> None:
    """Two writers commit while full and light passes run back to back: every reported
    COMMIT is on main, fsck stays clean, nothing is lost."""
    store = Store.init(tmp_path / "store", durable=False)
    writers, each = 2, 25
    pairs = [remember("pnpm", mid=f"w{i}", author=f"w{i}") for i in range(writers * each)]
    tenant = store.tenant(TENANT, create=True)
    tenant.ingest([Message.model_validate(m) for m, _ in pairs])
    raws = [raw for _, raw in pairs]
    barrier, results = CTX.Barrier(writers), CTX.Queue()
    procs = [CTX.Process(target=_workers.submit_batch,
                         args=(str(store.root), raws[w::writers], barrier, results))
             for w in range(writers)]
    for proc in procs:
        proc.start()
    passes = 0
    reports: list[Any] = []
    try:
        while any(p.is_alive() for p in procs) or not results.empty():
            maintenance.maintain(tenant, fsck=False, count=False, lock_timeout=30)
            maintenance.light(tenant.path)
            passes += 1
            while not results.empty():
                reports.append(results.get())
    finally:
        for proc in procs:
            proc.join(30)
    reports = [r for r in reports if r[0] != "done"]
    assert not [r for r in reports if r[0] == "error"], reports
    assert Counter(r[1] for r in reports) == {"COMMIT": len(raws)}
    on_main = {t["Proposal-Id"] for _, t in main_chain(tenant.repo) if "Proposal-Id" in t}
    assert on_main == {r[0] for r in reports}
    assert passes >= 2, passes
    maintenance.maintain(tenant)
    fsck(tenant.path)


def test_store_format_is_checked(tmp_path: Path) -> None:
    store = Store.init(tmp_path / "s", durable=False)
    marker = store.root / "memrepo-store.json"
    marker.write_text(json.dumps({"format": 1}) + "\n")
    with pytest.raises(Exception) as err:  # noqa: B017 - StoreError, checked by code
        Store(store.root, durable=False).tenant(TENANT, create=True)
    assert getattr(err.value, "code", None) == "store_format"


def test_no_folder_a_commit_rewrites_grows_with_the_store() -> None:
    """Every folder on a commit's paths, at 50k facts (10 per subject, one message and
    one proposal each, conversations of 10): under one entry on average and a handful at
    most (the conversations' own 10), where one level of fan-out would hold ~200 (~3,900
    at a million)."""
    n = 50_000
    folders: Counter[str] = Counter()
    one_level: Counter[str] = Counter()
    for i in range(n):
        mid = hashlib.sha256(b"m%d" % i).hexdigest()[:32]  # memoryIds are hashes
        pid = hashlib.sha256(b"p%d" % i).hexdigest()
        paths = [layout.id_index_path(mid), layout.proposal_path(pid),
                 layout.message_path(f"m{i}"), layout.derived_path(f"m{i}", mid),
                 layout.pending_path(mid, pid), layout.invalid_path(pid),
                 layout.conversation_message_path(f"c{i // 10}", f"m{i}")]
        if i % 10 == 0:
            paths.append(layout.subject_dir(f"s{i // 10}") + "/x")
        for path in paths:
            folders[path.rsplit("/", 1)[0]] += 1
        one_level["ids/" + mid[:2]] += 1
    biggest = max(folders.values())
    assert biggest <= 24, folders.most_common(3)
    assert min(one_level.values()) > 120  # what the previous layout rewrote per new fact


def test_sizes_and_estimate_on_an_empty_repository(tmp_path: Path) -> None:
    path = tmp_path / "r.git"
    _git.init_bare(path)
    assert maintenance.sizes(path).total_bytes == 0
    assert maintenance.estimate(path) == (0, 0)
    assert sys.executable  # the light pass needs nothing but git on PATH
