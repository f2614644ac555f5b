"""Snapshot tags and rollback on real repositories: idempotent daily tags, retention,
dry-run diffs, restore commits, and undoing a rollback byte for byte."""

from __future__ import annotations

import json
import subprocess
from datetime import timedelta
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import NOW, message, proposal
from memrepo import _git, gate, lifecycle, recall, snapshots
from memrepo.cli import cli
from memrepo.errors import InputError, NotFoundError
from memrepo.lifecycle import FactRef
from memrepo.proposal import DecisionKind, FactStatus
from memrepo.store import Store

PM = FactRef("u1", {"kind": "global", "key": "default"}, "preference", "package_manager")
EDITOR = FactRef("u1", {"kind": "global", "key": "default"}, "preference", "editor")
OTHER = FactRef("u2", {"kind": "global", "key": "default"}, "preference", "editor")


def git(store: Store, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(store.tenant_path("t1")), *args],
                          capture_output=True, text=True, check=True).stdout


def fact_blobs(store: Store) -> dict[str, str]:
    """Every fact file path on main with its blob id."""
    tenant = store.tenant("t1")
    facts = _git.lookup(tenant.state().main_tree, "facts")
    assert facts is not None
    return {p: str(oid) for p, oid in _git.walk_blobs(tenant.repo, facts, "facts/")}


def tip(store: Store) -> str:
    return str(store.tenant("t1").state().main)


@pytest.fixture
def history(store: Store) -> dict[str, Any]:
    """pnpm (gate) + vim (admin) -> snapshot -> bun, Neovim, and a new fact for u2."""
    msg = message("Remember that I use pnpm for packages.", mid="m1")
    store.tenant("t1", create=True).ingest([msg])
    d = gate.submit(store, proposal(msg, "Remember that I use pnpm"), now=NOW)
    assert d.decision is DecisionKind.COMMIT
    lifecycle.admin_set(store, "t1", EDITOR, "vim", operator="admin", reason="seed", now=NOW)
    [snap] = snapshots.snapshot(store, ["t1"], now=NOW)
    before = fact_blobs(store)
    lifecycle.edit(store, "t1", PM, "bun", operator="admin", reason="bad import", now=NOW)
    lifecycle.edit(store, "t1", EDITOR, "Neovim", operator="admin", reason="bad import", now=NOW)
    lifecycle.edit(store, "t1", OTHER, "emacs", operator="admin", reason="bad import", now=NOW)
    return {"snap": snap, "before": before, "pm": d.memory_id}


# -- snapshots ---------------------------------------------------------------------------


def test_snapshot_is_idempotent_within_a_day_and_prunes_old_tags(store: Store) -> None:
    lifecycle.admin_set(store, "t1", PM, "pnpm", operator="a", reason="seed", now=NOW,
                        create_tenant=True)
    first = tip(store)
    [r] = snapshots.snapshot(store, now=NOW)
    assert (r.tag, r.created, r.commit) == ("snapshot/2026-10-14", True, first)
    lifecycle.admin_set(store, "t1", PM, "bun", operator="a", reason="later", now=NOW)
    [again] = snapshots.snapshot(store, ["t1"], now=NOW + timedelta(hours=5))
    assert (again.created, again.commit) == (False, first)      # the tag never moves
    assert git(store, "rev-parse", "snapshot/2026-10-14^{commit}").strip() == first
    assert git(store, "cat-file", "-t", "snapshot/2026-10-14").strip() == "tag"  # annotated
    old_commits = []
    for days in (45, 31, 30, 2):
        lifecycle.admin_set(store, "t1", PM, f"v{days}", operator="a", reason="x", now=NOW)
        old_commits.append(tip(store))
        snapshots.snapshot(store, ["t1"], now=NOW - timedelta(days=days), keep_days=1000)
    [r] = snapshots.snapshot(store, ["t1"], now=NOW)
    assert sorted(r.pruned) == ["snapshot/2026-08-30", "snapshot/2026-09-13"]
    names = [t.name for t in snapshots.list_snapshots(store, "t1")]
    assert names == ["snapshot/2026-09-14", "snapshot/2026-10-12", "snapshot/2026-10-14"]
    for commit in old_commits:                                   # commits are never deleted
        assert git(store, "cat-file", "-t", commit).strip() == "commit"
        assert git(store, "merge-base", "--is-ancestor", commit, "main") == ""


def test_snapshot_all_tenants(store: Store) -> None:
    for tenant in ("t1", "t2"):
        lifecycle.admin_set(store, tenant, PM, "pnpm", operator="a", reason="seed", now=NOW,
                            create_tenant=True)
    results = snapshots.snapshot(store, now=NOW)
    assert sorted(r.tenant_id for r in results) == ["t1", "t2"]
    assert all(r.created for r in results)


# -- rollback ----------------------------------------------------------------------------


def test_dry_run_shows_the_diff_and_writes_nothing(store: Store, history: dict[str, Any]) -> None:
    head = tip(store)
    plan = snapshots.rollback(store, "t1", to=history["snap"].tag, subject="u1",
                              operator="", reason="")
    assert tip(store) == head and not plan.applied and plan.base == head
    by_key = {(c.new or c.old).normalized_key: c for c in plan.changes}  # type: ignore[union-attr]
    pm = by_key["package_manager"]
    assert pm.action == "restore" and pm.old and pm.new
    assert (pm.old.value, pm.new.value) == ("bun", "pnpm")
    assert pm.new_blob == history["before"][PM.path]
    assert len(plan.changes) == 2                                # u2 is not in the selection


def test_rollback_then_undo_restores_the_exact_files(store: Store, history: dict[str, Any]
                                                     ) -> None:
    before_rollback = fact_blobs(store)
    commits = int(git(store, "rev-list", "--count", "main"))
    plan = snapshots.rollback(store, "t1", to=history["snap"].tag,
                              facts=[history["pm"], EDITOR.spec, OTHER], apply=True,
                              operator="admin", reason="bad import on 10-14", now=NOW)
    assert plan.applied and plan.commit
    actions = sorted(c.action for c in plan.changes)
    assert actions == ["restore", "restore", "revoke"]
    after = fact_blobs(store)
    assert after[PM.path] == history["before"][PM.path]          # byte for byte
    assert after[EDITOR.path] == history["before"][EDITOR.path]
    assert OTHER.path in after                                   # revoked, not deleted
    assert store.tenant("t1").fact_at(OTHER.path, store.tenant("t1").state()).status \
        is FactStatus.REVOKED
    assert recall.recall(store, "t1", "u2", now=NOW) == []
    assert [f.value for f in recall.recall(store, "t1", "u1", now=NOW)] == ["vim", "pnpm"]
    trailers = _git.trailer_lines(git(store, "log", "-1", "--format=%B", plan.commit))
    assert ("Op", "restore") in trailers
    assert ("Restore-Target", history["snap"].commit) in trailers
    assert {v for k, v in trailers if k == "Memory-Id"} == {c.memory_id for c in plan.changes}
    # roll the rollback back: every fact file returns to its exact blob
    undo = snapshots.undo(store, "t1", plan.commit, operator="admin", reason="oops", apply=True,
                          now=NOW)
    assert undo.applied and fact_blobs(store) == before_rollback
    assert [f.value for f in recall.recall(store, "t1", "u2", now=NOW)] == ["emacs"]
    # and once more, via --to <commit>^: the rollback's files again
    again = snapshots.rollback(store, "t1", to=f"{undo.commit}^", subject="u1",
                               operator="admin", reason="redo", apply=True, now=NOW)
    assert again.applied
    assert fact_blobs(store)[PM.path] == history["before"][PM.path]
    assert int(git(store, "rev-list", "--count", "main")) == commits + 3  # only new commits


def test_rollback_refusals(store: Store, history: dict[str, Any]) -> None:
    with pytest.raises(InputError) as exc:
        snapshots.rollback(store, "t1", to=history["snap"].tag, operator="a", reason="r")
    assert exc.value.code == "usage"                               # no whole-tenant reset
    with pytest.raises(NotFoundError):
        snapshots.rollback(store, "t1", to="snapshot/1999-01-01", subject="u1",
                           operator="a", reason="r")
    audit_tip = str(store.tenant("t1").state().audit)
    with pytest.raises(InputError) as exc:
        snapshots.rollback(store, "t1", to=audit_tip, subject="u1", operator="a", reason="r")
    assert exc.value.code == "not_on_main"
    with pytest.raises(InputError) as exc:
        snapshots.rollback(store, "t1", to=history["snap"].tag, subject="u1", operator="a",
                           reason="r", apply=True, expect_main="0" * 40)
    assert exc.value.code == "main_moved"
    with pytest.raises(InputError) as exc:
        snapshots.rollback(store, "t1", to=history["snap"].tag, subject="u1", operator="",
                           reason="", apply=True)
    assert exc.value.code == "reason_required"


def test_frozen_facts_are_left_alone(store: Store, history: dict[str, Any]) -> None:
    lifecycle.freeze(store, "t1", PM, operator="admin", reason="pinned", now=NOW)
    plan = snapshots.rollback(store, "t1", to=history["snap"].tag, subject="u1",
                              operator="admin", reason="r", apply=True, now=NOW)
    actions = {c.memory_id: c.action for c in plan.changes}
    assert actions[history["pm"]] == "frozen"
    assert recall.recall(store, "t1", "u1", now=NOW)[1].value == "bun"


# -- CLI -----------------------------------------------------------------------------------


def run(store: Store, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--store", str(store.root), "--no-fsync", *args])


def test_cli_snapshot_and_rollback(store: Store, history: dict[str, Any]) -> None:
    r = run(store, "snapshot", "--tenant", "t1", "--now", "2026-10-14T12:00:00Z")
    assert r.exit_code == 0 and "snapshot/2026-10-14  exists" in r.output
    r = run(store, "snapshot", "--tenant", "t1", "--list", "--json")
    assert r.exit_code == 0 and "snapshot/2026-10-14" in [x["tag"] for x in json.loads(r.output)]
    head = tip(store)
    r = run(store, "rollback", "--tenant", "t1", "--to", "snapshot/2026-10-14", "--subject", "u1")
    assert r.exit_code == 0, r.output
    assert '"bun" -> v1 ACTIVE "pnpm"' in r.output and "dry run: nothing written" in r.output
    assert tip(store) == head
    r = run(store, "rollback", "--tenant", "t1", "--to", "snapshot/2026-10-14", "--subject",
            "u1", "--apply", "--base", head, "--operator", "admin", "--reason", "bad import",
            "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["applied"] and out["commit"] == tip(store)
    r = run(store, "rollback", "--tenant", "t1", "--undo", out["commit"], "--apply",
            "--operator", "admin", "--reason", "oops")
    assert r.exit_code == 0 and "restored 2 fact(s)" in r.output
    r = run(store, "rollback", "--tenant", "t1", "--to", "snapshot/2026-10-14", "--subject",
            "u1", "--apply", "--base", head, "--operator", "admin", "--reason", "stale")
    assert r.exit_code == 1 and "main_moved" in r.output
    r = run(store, "rollback", "--tenant", "t1", "--subject", "u1")
    assert r.exit_code == 1 and "--to" in r.output
