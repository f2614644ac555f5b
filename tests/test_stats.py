"""Stats and hard triggers read real repositories."""

from __future__ import annotations

from click.testing import CliRunner

from conftest import NOW, message, proposal
from memrepo import gate, guard, lifecycle
from memrepo.cli import cli
from memrepo.stats import stats
from memrepo.store import Store


def test_stats_counts_decisions_confirmations_replays_and_revocations(store: Store) -> None:
    repo = store.tenant("t1", create=True)
    m1 = message("Remember that I use pnpm for packages.", mid="m1")
    m2 = message("I usually use vim for quick edits.", mid="m2")
    m3 = message("I think I might like tea.", mid="m3")
    repo.ingest([m1, m2, m3])
    committed = proposal(m1, "Remember that I use pnpm")
    gate.submit(store, committed, now=NOW)
    gate.submit(store, committed, now=NOW)  # a replay
    parked = gate.submit(store, proposal(m2, "I usually use vim", key="editor", value="vim"),
                         now=NOW)
    declined = gate.submit(store, proposal(m3, "I might like tea", key="drink", value="tea"),
                           now=NOW)
    assert parked.proposal_id and parked.payload_hash and declined.proposal_id
    lifecycle.confirm(store, "t1", parked.proposal_id, parked.payload_hash, approver="u1",
                      now=NOW)
    lifecycle.decline(store, "t1", declined.proposal_id, operator="u1", now=NOW)
    lifecycle.revoke(store, "t1", message_id="m1", operator="u1", now=NOW)
    s = stats(store, "t1")
    assert s.proposals == 3
    assert s.by_decision == {"COMMIT": 1, "NEEDS_CONFIRMATION": 2}
    assert s.confirmed == 1 and s.declined == 1 and s.confirmation_acceptance == 0.5
    assert s.replays == 1
    assert s.revoked_facts == 1
    assert s.auto_commits == 1 and s.auto_commits_revoked == 1
    assert s.by_reason["no_explicit_instruction"] == 2


def test_guard_switches_to_shadow_on_a_committed_secret(store: Store) -> None:
    ref = lifecycle.FactRef("u1", {"kind": "global", "key": "default"}, "task_fact",
                            "current_task")
    token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    lifecycle.admin_set(store, "t1", ref, f"deploy with token {token}", operator="admin",
                        reason="imported", now=NOW, create_tenant=True)
    findings = guard.scan(store, "t1")
    assert [f.trigger for f in findings] == ["secret_committed"]
    result = CliRunner().invoke(cli, ["--store", str(store.root), "--no-fsync", "guard"])
    assert result.exit_code == 2
    assert "ALERT t1: secret_committed" in result.stderr
    repo = store.tenant("t1")
    assert repo.policy(repo.state()).mode == "shadow"
    # recall keeps serving; the gate commits nothing any more
    repo.ingest([message("Remember that I use pnpm for packages.")])
    d = gate.submit(store, proposal(message("Remember that I use pnpm for packages."),
                                    "Remember that I use pnpm"), now=NOW)
    assert d.decision.value == "REJECT" and "shadow_mode" in d.reasons


def test_guard_is_quiet_on_a_clean_store(store: Store) -> None:
    store.tenant("t1", create=True)
    assert guard.scan(store, "t1") == []
    result = CliRunner().invoke(cli, ["--store", str(store.root), "guard"])
    assert result.exit_code == 0 and "no hard triggers" in result.output


def test_guard_reports_revocation_residue_in_a_projection(store: Store) -> None:
    import sqlite3

    from memrepo import projections

    ref = lifecycle.FactRef("u1", {"kind": "global", "key": "default"}, "preference", "drink")
    lifecycle.admin_set(store, "t1", ref, "green tea", operator="admin", reason="seed", now=NOW,
                        create_tenant=True)
    projections.sync_all(store, "t1")
    assert guard.projection_residue(store, "t1") == []
    db = projections.projection_dir(store, "t1") / "facts.sqlite"
    with sqlite3.connect(db) as conn:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(facts_fts)")]
        saved = conn.execute(f"SELECT rowid, {', '.join(cols)} FROM facts_fts").fetchall()
    conn.close()
    lifecycle.revoke(store, "t1", fact=ref, operator="u1", now=NOW)
    projections.sync_all(store, "t1")
    # a projection that lost the revocation (say, restored from an old backup)
    with sqlite3.connect(db) as conn:
        marks = ", ".join("?" * (len(cols) + 1))
        conn.executemany(f"INSERT INTO facts_fts(rowid, {', '.join(cols)}) VALUES ({marks})",
                         saved)
    conn.close()
    findings = guard.projection_residue(store, "t1")
    assert [f.trigger for f in findings] == ["revocation_residue"]
