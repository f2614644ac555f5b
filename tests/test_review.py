"""Bulk changes as a review: import onto a branch, approve (tip + payload set), merge with
re-decisions, on real repositories, including a 1,000-proposal migration with planted
conflicts."""

from __future__ import annotations

import json
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pygit2
import pytest
from click.testing import CliRunner

from conftest import NOW, message, proposal
from memrepo import _git, gate, hooks, layout, lifecycle, review
from memrepo.cli import cli
from memrepo.errors import ApprovalError, InputError
from memrepo.proposal import DecisionKind, Message, parse_proposal
from memrepo.store import Store, TenantRepo

LATER = NOW + timedelta(hours=1)
GLOBAL = {"kind": "global", "key": "default"}


def say(tenant: TenantRepo, texts: dict[str, tuple[str, str]]) -> dict[str, Message]:
    """Ingest messages {mid: (author, text)}, one conversation each."""
    msgs = [message(text, mid=mid, author=author, conversation=f"c-{mid}")
            for mid, (author, text) in texts.items()]
    tenant.ingest(msgs)
    return {m.message_id: m for m in msgs}


def pm(msg: Message, value: str, quote: str | None = None) -> dict[str, Any]:
    return proposal(msg, quote or f"Remember that I use {value}", value=value,
                    subject=msg.author_id or "")


def fact_of(tenant: TenantRepo, subject: str) -> Any:
    return tenant.fact_at(layout.fact_path(subject, GLOBAL, "preference", "package_manager"),
                          tenant.state())


def test_small_review_end_to_end(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    msgs = say(tenant, {
        "a": ("u1", "Remember that I use pnpm for packages."),
        "b": ("u2", "Remember that I use bun for packages."),
        "c": ("u2", "Remember that I use npm for packages."),
        "d": ("u3", "I think I might use yarn for packages."),
    })
    items = [(1, pm(msgs["a"], "pnpm")), (2, pm(msgs["b"], "bun")), (3, pm(msgs["c"], "npm")),
             (4, pm(msgs["d"], "yarn", "I think I might use yarn")), (5, "{not json")]
    before = tenant.state()
    report = review.import_proposals(store, "t1", items, name="mig", now=NOW)
    assert tenant.state().main == before.main and tenant.state().audit == before.audit
    assert [e.proposal.subject_id for e in report.entries] == ["u1"]
    assert sorted((f.code, f.line) for f in report.findings) == [
        ("conflict_in_file", 2), ("conflict_in_file", 3), ("invalid_proposal", 5),
        ("not_approvable", 4)]
    # The branch is one gate-format commit per proposal that the hook's checker accepts.
    assert hooks.check_history(tenant, report.base, report.tip,
                               ref="refs/heads/review/mig") == []
    with pytest.raises(InputError, match="exists already"):
        review.import_proposals(store, "t1", items, name="mig", now=NOW)
    with pytest.raises(ApprovalError, match="not approved"):
        review.merge(store, "t1", "mig", now=LATER)
    view = review.show(store, "t1", "mig", patch=True)
    assert [c.op for c in view.changes] == ["+"]
    assert '+  "value": "pnpm"' in view.patch
    review.approve(store, "t1", "mig", approver="alice", now=NOW)
    assert review.load(tenant, "mig").status == "approved"
    merged = review.merge(store, "t1", "mig", now=LATER)
    assert merged.counts() == {"COMMIT": 1}
    fact = fact_of(tenant, "u1")
    assert fact.value == "pnpm" and fact.approved_by == "alice"
    assert fact.operator == "review/mig"
    assert hooks.check_history(tenant, merged.main_before, merged.main_after) == []
    assert review.load(tenant, "mig").status == "merged"
    with pytest.raises(InputError, match="merged already"):
        review.merge(store, "t1", "mig", now=LATER)


def test_the_approval_binds_the_tip_and_the_payload_set(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    msgs = say(tenant, {"a": ("u1", "Remember that I use pnpm for packages."),
                        "b": ("u2", "Remember that I use bun for packages.")})
    review.import_proposals(store, "t1", [(1, pm(msgs["a"], "pnpm"))], name="r1", now=NOW)
    approval = review.approve(store, "t1", "r1", approver="alice", now=NOW)
    # Someone adds a commit to the branch after the approval (e.g. a push to the MR).
    rev = review.load(tenant, "r1")
    a = gate.assess(tenant, tenant.state(), parse_proposal(pm(msgs["b"], "bun")), NOW)
    state = tenant.state()
    from memrepo.store import State

    at_tip = State(rev.tip, state.audit, _git.tree_of(tenant.repo, rev.tip), state.audit_tree)
    extra = gate.commit_fact(review._BranchWriter(tenant), at_tip, a, NOW, reasons=(),
                             operator="review/r1")
    assert extra is not None and extra.commit is not None
    tenant.repo.references["refs/heads/review/r1"].set_target(extra.commit)
    with pytest.raises(ApprovalError, match="moved since it was approved") as moved:
        review.merge(store, "t1", "r1", now=LATER)
    assert moved.value.code == "approval_stale"
    # Put the tip back but tamper with the approved payload set.
    tenant.repo.references["refs/heads/review/r1"].set_target(rev.tip)
    forged = dict(approval, payloadHashes=["0" * 64])
    commit = review._meta_commit(tenant, rev.approval_commit, {review.APPROVAL_FILE: forged},
                                 "tamper\n", NOW)
    tenant.repo.references["refs/memrepo/approvals/r1"].set_target(commit)
    with pytest.raises(ApprovalError, match="payloadHashes") as mismatch:
        review.merge(store, "t1", "r1", now=LATER)
    assert mismatch.value.code == "approval_mismatch"
    assert fact_of(tenant, "u1") is None


def test_approving_a_hand_edited_branch_is_refused(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    msgs = say(tenant, {"a": ("u1", "Remember that I use pnpm for packages.")})
    report = review.import_proposals(store, "t1", [(1, pm(msgs["a"], "pnpm"))], name="r",
                                     now=NOW)
    tip = _git.commit_of(tenant.repo, report.tip or "")
    assert tip is not None
    path = report.entries[0].fact_path
    data = (_git.lookup_blob(tenant.repo, tip.tree, path) or b"").replace(b"pnpm", b"yarn")
    tree = _git.edit_tree(tenant.repo, tip.tree, {path: _git.write_blob(tenant.repo, data)})
    forged = _git.create_commit(tenant.repo, tree=tree, parents=list(tip.parent_ids),
                                message=tip.message, author=_git.Author("m", "m@x"))
    tenant.repo.references["refs/heads/review/r"].set_target(forged)
    with pytest.raises(ApprovalError, match="payloadHash does not match"):
        review.approve(store, "t1", "r", approver="alice", now=NOW)


def test_a_branch_pushed_from_elsewhere_is_reviewed_from_its_fork_point(
        store: Store, tmp_path: Path) -> None:
    """A review branch made in another copy and pushed here (no import record) can
    still be approved and merged: its base is where it left main."""
    tenant = store.tenant("t1", create=True)
    msgs = say(tenant, {"a": ("u1", "Remember that I use pnpm for packages.")})
    review.import_proposals(store, "t1", [(1, pm(msgs["a"], "pnpm"))], name="x", now=NOW)
    # What a push of the branch alone leaves behind: the branch, no review record.
    tenant.repo.references.delete("refs/memrepo/reviews/x")
    found = review.load(tenant, "x")
    assert found.meta is None and found.base == tenant.state().main
    review.approve(store, "t1", "x", approver="alice", now=NOW)
    assert review.merge(store, "t1", "x", now=LATER).counts() == {"COMMIT": 1}


def test_merge_publishes_in_batches_each_decided_on_main_as_it_is_then(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A merge is published a batch at a time (one pack, one compare-and-swap each), so a
    fact that changes on main between two batches is seen by the later one: parked,
    never overwritten. Every proposal is still its own commit on main."""
    from memrepo import groupcommit

    monkeypatch.setattr(groupcommit, "MAX_BATCH", 3)
    tenant = store.tenant("t1", create=True)
    msgs = say(tenant, {**{f"m{i}": (f"u{i}", "Remember that I use pnpm for packages.")
                           for i in range(7)},
                        "late": ("u5", "Remember that I use bun for packages.")})
    review.import_proposals(store, "t1", [(i + 1, pm(msgs[f"m{i}"], "pnpm")) for i in range(7)],
                            name="b", now=NOW)
    review.approve(store, "t1", "b", approver="alice", now=NOW)
    seen: list[tuple[int, int]] = []

    def between_batches(done: int, total: int) -> None:
        seen.append((done, total))
        if done == 3:  # u5's proposal is in the second batch, not yet decided
            assert fact_of(tenant, "u2").value == "pnpm" and fact_of(tenant, "u5") is None
            assert gate.submit(store, pm(msgs["late"], "bun"), now=NOW).decision \
                is DecisionKind.COMMIT

    merged = review.merge(store, "t1", "b", now=LATER, progress=between_batches)
    assert seen == [(3, 7), (6, 7), (7, 7)]
    decisions = {r.entry.proposal.subject_id: r.decision for r in merged.results}
    assert decisions["u5"].decision is DecisionKind.CONFIRM_REPLACE
    assert merged.counts() == {"COMMIT": 6, "CONFIRM_REPLACE": 1}
    assert fact_of(tenant, "u5").value == "bun"
    assert all(fact_of(tenant, f"u{i}").approved_by == "alice" for i in (0, 1, 2, 3, 4, 6))
    assert merged.main_before and merged.main_after
    chain = list(_git.first_parent_chain(tenant.repo, pygit2.Oid(hex=merged.main_after),
                                         pygit2.Oid(hex=merged.main_before)))
    assert len(chain) == 6 + 1  # six merged commits and the gate's commit between batches
    assert hooks.check_history(tenant, merged.main_before, merged.main_after) == []


@pytest.mark.slow
def test_a_migration_of_1000_with_planted_conflicts(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    texts: dict[str, tuple[str, str]] = {}
    for i in range(990):
        hedged = 35 <= i < 40
        texts[f"m{i}"] = (f"u{i}", "I think I might use pnpm for packages." if hedged
                          else "Remember that I use pnpm for packages.")
    for i in range(25, 35):
        texts[f"n{i}"] = (f"u{i}", "Remember that I use npm for packages.")
    for i in range(20):
        texts[f"y{i}"] = (f"u{i}", "Remember that I use yarn for packages.")
    for i in range(40, 50):
        texts[f"b{i}"] = (f"u{i}", "Remember that I use bun for packages.")
    for i in range(50, 55):
        texts[f"p{i}"] = (f"u{i}", "Remember that I use pnpm for packages!")
    msgs = say(tenant, texts)
    # On main before the import: 20 different values, 5 frozen facts.
    for i in range(20):
        assert gate.submit(store, pm(msgs[f"y{i}"], "yarn"), now=NOW).decision \
            is DecisionKind.COMMIT
    for i in range(20, 25):
        ref = lifecycle.FactRef(f"u{i}", GLOBAL, "preference", "package_manager")
        lifecycle.admin_set(store, "t1", ref, "bun", operator="admin", reason="seed",
                            frozen=True, now=NOW)
    lines: list[tuple[int | None, Any]] = []
    for i in range(990):
        quote = "I think I might use pnpm" if 35 <= i < 40 else None
        lines.append((len(lines) + 1, json.dumps(pm(msgs[f"m{i}"], "pnpm", quote))))
    for i in range(25, 35):
        lines.append((len(lines) + 1, json.dumps(pm(msgs[f"n{i}"], "npm"))))
    assert len(lines) == 1000

    started = time.perf_counter()
    report = review.import_proposals(store, "t1", lines, name="migration", now=NOW)
    imported = time.perf_counter() - started
    codes: dict[str, set[str]] = {}
    for f in report.findings:
        codes.setdefault(f.code, set()).add(f.detail.split()[0])
    assert codes["differs_from_main"] == {f"u{i}" for i in range(20)}
    assert codes["frozen_target"] == {f"u{i}" for i in range(20, 25)}
    assert codes["conflict_in_file"] == {f"u{i}" for i in range(25, 35)}
    assert codes["not_approvable"] == {f"u{i}" for i in range(35, 40)}
    assert len(report.findings) == 20 + 5 + 20 + 5
    assert len(report.entries) == 950

    started = time.perf_counter()
    review.approve(store, "t1", "migration", approver="alice", now=NOW)
    approved = time.perf_counter() - started

    # Meanwhile on main: 10 facts get another value, 5 the same value from another message,
    # 3 are frozen by an administrator.
    for i in range(40, 50):
        assert gate.submit(store, pm(msgs[f"b{i}"], "bun"), now=NOW).decision \
            is DecisionKind.COMMIT
    for i in range(50, 55):
        assert gate.submit(store, pm(msgs[f"p{i}"], "pnpm"), now=NOW).decision \
            is DecisionKind.COMMIT
    for i in range(55, 58):
        ref = lifecycle.FactRef(f"u{i}", GLOBAL, "preference", "package_manager")
        lifecycle.admin_set(store, "t1", ref, "yarn", operator="admin", reason="pin",
                            frozen=True, now=NOW)
    view = review.show(store, "t1", "migration")
    assert sum(c.changed_since_review for c in view.changes) == 18
    assert view.main_ahead == 18

    started = time.perf_counter()
    merged = review.merge(store, "t1", "migration", now=LATER)
    merging = time.perf_counter() - started
    by_subject = {r.entry.proposal.subject_id: r.decision for r in merged.results}
    assert merged.counts() == {"COMMIT": 932, "CONFIRM_REPLACE": 10, "CONFLICT": 5,
                               "REJECT": 3}
    assert {s for s, d in by_subject.items() if d.decision is DecisionKind.CONFIRM_REPLACE} \
        == {f"u{i}" for i in range(40, 50)}
    assert all("fact_changed_since_review" in by_subject[f"u{i}"].reasons
               for i in range(50, 55))
    # Nothing that conflicted was applied.
    values = {i: fact_of(tenant, f"u{i}") for i in range(60)}
    assert all(values[i].value == "yarn" and values[i].version == 1 for i in range(20))
    assert all(values[i].value == "bun" and values[i].frozen for i in range(20, 25))
    assert all(values[i] is None for i in range(25, 40))
    assert all(values[i].value == "bun" for i in range(40, 50))
    assert all(values[i].version == 1 and values[i].approved_by is None for i in range(50, 55))
    assert all(values[i].value == "yarn" and values[i].frozen for i in range(55, 58))
    assert values[58].value == "pnpm" and values[58].approved_by == "alice"
    pending = {r["proposal"]["subjectId"] for r in tenant.all_pending(tenant.state())}
    assert {f"u{i}" for i in range(40, 55)} <= pending
    print(f"\nimport {imported:.1f}s, approve {approved:.1f}s, merge {merging:.1f}s "
          f"(wall clock; 1,000 proposals)")


def test_cli_import_show_approve_merge(store: Store, tmp_path: Path) -> None:
    tenant = store.tenant("t1", create=True)
    msgs = say(tenant, {"a": ("u1", "Remember that I use pnpm for packages."),
                        "b": ("u2", "Remember that I use bun for packages.")})
    gate.submit(store, pm(msgs["b"], "bun"), now=NOW)
    other = message("Remember that I use npm for packages.", mid="c", author="u2",
                    conversation="c-c")
    tenant.ingest([other])
    source = tmp_path / "mig.jsonl"
    source.write_text(json.dumps(pm(msgs["a"], "pnpm")) + "\n"
                      + json.dumps(pm(other, "npm")) + "\n")
    runner = CliRunner()
    base = ["--store", str(store.root), "--no-fsync"]
    out = runner.invoke(cli, [*base, "import", "--tenant", "t1", str(source), "--name", "m1"])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[0] == ("refs/heads/review/m1: 1 of 2 proposal(s) on the "
                                          "branch, 1 finding(s)")
    assert "differs_from_main" in out.output
    listed = runner.invoke(cli, [*base, "review", "list", "--tenant", "t1"])
    assert listed.exit_code == 0 and listed.output.startswith("m1 ")
    assert " open " in listed.output
    shown = runner.invoke(cli, [*base, "review", "show", "m1", "--tenant", "t1"])
    assert shown.exit_code == 0
    assert '+  u1 preference/package_manager [global:default] = "pnpm"' in shown.output
    merge = runner.invoke(cli, [*base, "review", "merge", "m1", "--tenant", "t1"])
    assert merge.exit_code == 1
    assert "Error: review 'm1' is not approved" in merge.output
    ok = runner.invoke(cli, [*base, "review", "approve", "m1", "--tenant", "t1",
                             "--approver", "alice"])
    assert ok.exit_code == 0 and ok.output.startswith("approved review/m1 at ")
    merge = runner.invoke(cli, [*base, "review", "merge", "m1", "--tenant", "t1"])
    assert merge.exit_code == 0, merge.output
    assert merge.output == "merged review/m1: COMMIT 1\n"
