"""The audit view, explain and export on a real repository with every kind of operation,
checked against what plain `git log` says."""

from __future__ import annotations

import json
import subprocess
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import NOW, message, proposal
from memrepo import _git, audit, gate, lifecycle, snapshots
from memrepo.cli import cli
from memrepo.lifecycle import FactRef
from memrepo.proposal import DecisionKind, Fact
from memrepo.store import Store

G = {"kind": "global", "key": "default"}
PM = FactRef("u1", G, "preference", "package_manager")
EDITOR = FactRef("u1", G, "preference", "editor")
IDE = FactRef("u1", {"kind": "project", "key": "shop"}, "preference", "editor")
TZ = FactRef("u2", G, "preference", "timezone")


def at(hours: int) -> Any:
    return NOW + timedelta(hours=hours)


@pytest.fixture
def story(tmp_path: Path) -> dict[str, Any]:
    """One tenant that went through every operation, each an hour after the last."""
    store = Store.init(tmp_path / "store", durable=False)
    texts = {"m1": "Remember that I use pnpm for packages.",
             "m2": "Remember that I use yarn for packages.",
             "m3": "Remember that I use bun for packages.",
             "m7": "Remember that I use npm for packages.",
             "m8": "Remember that my timezone is Europe/Berlin."}
    msgs = {mid: message(text, mid=mid, conversation=f"c-{mid}") for mid, text in texts.items()}
    msgs["m8"] = message(texts["m8"], mid="m8", author="u2", conversation="c-m8")
    store.tenant("t1", create=True).ingest(list(msgs.values()))
    out: dict[str, Any] = {"store": store}

    def submit(mid: str, quote: str, value: str, hour: int, **extra: Any) -> Any:
        return gate.submit(store, proposal(msgs[mid], quote, value=value, **extra), now=at(hour))

    created = submit("m1", "Remember that I use pnpm", "pnpm", 0)
    assert created.decision is DecisionKind.COMMIT
    out["created"] = created
    [out["snap"]] = snapshots.snapshot(store, ["t1"], now=at(0))
    replace = submit("m2", "Remember that I use yarn", "yarn", 1)
    assert replace.decision is DecisionKind.CONFIRM_REPLACE
    out["confirmed"] = lifecycle.confirm(store, "t1", replace.proposal_id, replace.payload_hash,
                                         approver="u1", now=at(2))
    assert out["confirmed"].decision is DecisionKind.COMMIT
    declined = submit("m3", "Remember that I use bun", "bun", 3)
    lifecycle.decline(store, "t1", declined.proposal_id, operator="u1", now=at(4))
    lifecycle.freeze(store, "t1", PM, operator="admin", reason="pin it", now=at(5))
    lifecycle.freeze(store, "t1", PM, operator="admin", reason="unpin", frozen=False, now=at(6))
    lifecycle.edit(store, "t1", PM, "pnpm", operator="admin", reason="user emailed", now=at(7))
    lifecycle.edit(store, "t1", EDITOR, "vim", operator="admin", reason="seed", now=at(8))
    lifecycle.edit(store, "t1", IDE, "nvim", operator="admin", reason="seed", now=at(8))
    lifecycle.merge(store, "t1", EDITOR, IDE, "Neovim", operator="admin", reason="dup",
                    now=at(9))
    lifecycle.split(store, "t1", EDITOR, [(EDITOR, "Neovim"), (IDE, "VS Code")],
                    operator="admin", reason="two editors", now=at(10))
    lifecycle.revoke(store, "t1", fact=IDE, operator="u1", reason="not true", now=at(11))
    out["restore"] = snapshots.rollback(store, "t1", to=out["snap"].tag, facts=[PM],
                                        operator="admin", reason="back to the gate's value",
                                        apply=True, now=at(12))
    tz = gate.submit(store, proposal(msgs["m8"], "Remember that my timezone is Europe/Berlin",
                                     subject="u2", key="timezone", value="Europe/Berlin",
                                     expiresAt=format_hours(14)), now=at(13))
    assert tz.decision is DecisionKind.COMMIT, tz
    [candidate] = lifecycle.expire(store, "t1", now=at(15)).candidates
    lifecycle.confirm(store, "t1", candidate["proposalId"], candidate["payloadHash"],
                      approver="u2", now=at(16))
    pending = submit("m7", "Remember that I use npm", "npm", 17, confidence=0.4)
    assert pending.decision in (DecisionKind.CONFIRM_REPLACE, DecisionKind.NEEDS_CONFIRMATION)
    lifecycle.revoke(store, "t1", message_id="m7", operator="u1", now=at(18))
    tenant = store.tenant("t1")
    policy = tenant.policy(tenant.state()).to_json()
    lifecycle.set_policy(store, "t1", dict(policy, maxVersions=30), operator="admin",
                         reason="more versions", now=at(19))
    return out


def format_hours(hours: int) -> str:
    from memrepo.proposal import format_time

    return format_time(at(hours))


def git_log(store: Store, ref: str) -> list[tuple[str, str]]:
    """(commit, message) pairs from plain git, newest first."""
    raw = subprocess.run(["git", "--git-dir", str(store.tenant_path("t1")), "log", "-z",
                          "--format=%H%x00%B", ref], capture_output=True, text=True,
                         check=True).stdout
    parts = raw.split("\x00")
    return [(parts[i].strip(), parts[i + 1]) for i in range(0, len(parts) - 1, 2)]


def test_git_log_tells_the_same_story_as_audit(story: dict[str, Any]) -> None:
    store: Store = story["store"]
    entries = audit.audit(store, "t1")
    by_commit: dict[str, list[audit.AuditEntry]] = defaultdict(list)
    for e in entries:
        by_commit[e.op_id].append(e)
    expected: dict[str, tuple[str, set[str | None]]] = {}
    for commit, body in git_log(store, "main"):
        trailers = _git.trailer_lines(body)
        op = dict(trailers).get("Op")
        if op is not None:
            expected[commit] = (op, {v for k, v in trailers if k == "Memory-Id"} or {None})
    for commit, body in git_log(store, "refs/memrepo/audit"):
        trailers = _git.trailer_lines(body)
        op = dict(trailers).get("Op")
        mids = {v for k, v in trailers if k == "Memory-Id"}
        if op in ("decline", "close", "expire") or (op == "revoke" and not mids):
            expected[commit] = (op, mids)
    assert set(by_commit) == set(expected)                       # the same commits
    for commit, (op, mids) in expected.items():
        got = by_commit[commit]
        assert {e.op for e in got} == {op}, commit               # the same ops
        if mids:
            assert {e.memory_id for e in got} == mids, (commit, op)   # the same facts
    ops = [e.op for e in entries]
    for op in ("create", "update", "decline", "freeze", "unfreeze", "edit", "merge", "split",
               "revoke", "restore", "expire", "renew", "policy"):
        assert op in ops, op
    times = [e.time_ms for e in entries]
    assert times == sorted(times)                                # oldest first


def test_audit_entries_carry_the_details(story: dict[str, Any]) -> None:
    store: Store = story["store"]
    entries = audit.audit(store, "t1")
    create = next(e for e in entries if e.op == "create")
    assert create.trigger == "Remember that I use pnpm" and create.operator == "gate"
    assert create.conversation_id == "c-m1" and create.time_ms == int(at(0).timestamp() * 1000)
    assert (create.old_version, create.new_version) == (None, 1)
    update = next(e for e in entries if e.op == "update")
    assert update.approved_by == "u1" and (update.old_version, update.new_version) == (1, 2)
    assert update.trigger == "Remember that I use yarn"
    decline = next(e for e in entries if e.op == "decline")
    assert decline.ref == "audit" and decline.trigger == "Remember that I use bun"
    assert decline.conversation_id == "c-m3"
    freeze = next(e for e in entries if e.op == "freeze")
    assert freeze.change_reason == "pin it" == freeze.trigger and freeze.operator == "admin"
    restore = next(e for e in entries if e.op == "restore")
    assert restore.restore_target == story["snap"].commit and restore.new_version == 1
    assert restore.op_id == story["restore"].commit
    merge = [e for e in entries if e.op == "merge"]
    assert sorted(e.new_status or "" for e in merge) == ["ACTIVE", "REVOKED"]
    policy = next(e for e in entries if e.op == "policy")
    assert policy.memory_id is None


def test_audit_filters(story: dict[str, Any]) -> None:
    store: Store = story["store"]
    only = audit.audit(store, "t1", ops={"revoke"})
    assert {e.op for e in only} == {"revoke"} and len(only) == 2   # by fact, pending-only
    window = audit.audit(store, "t1", since=at(5), until=at(7))
    assert [e.op for e in window] == ["freeze", "unfreeze", "edit"]
    u2 = audit.audit(store, "t1", subject="u2")
    assert {e.op for e in u2} == {"create", "expire", "renew"}


# -- explain -------------------------------------------------------------------------------


def test_explain_answers_the_four_questions(story: dict[str, Any]) -> None:
    store: Store = story["store"]
    ex = audit.explain(store, "t1", PM, now=at(20))
    text = ex.text()
    # PM was rolled back to the gate's first version: its provenance comes back with it
    assert ex.value_commit == story["created"].commit
    assert ex.latest_commit == story["restore"].commit
    assert "extractor eval-1 proposed it" in text
    assert 'message m1 in conversation c-m1 said "Remember that I use pnpm"' in text
    assert "the gate committed it automatically" in text
    assert "memrepo revoke --tenant t1 --fact u1/global:default/preference/package_manager" in text
    assert "memrepo revoke --tenant t1 --message m1" in text
    assert story["created"].commit in text
    assert f"Note: restored by admin in {story['restore'].commit}" in text
    tz = audit.explain(store, "t1", TZ.spec, now=at(20))
    assert "u2 renewed it after it expired" in tz.approved_by
    assert tz.approved_by.startswith("the gate committed it automatically")
    admin = audit.explain(store, "t1", EDITOR, now=at(20))
    assert admin.evidence is None and "administrator admin set it" in admin.proposed_by
    revoked = audit.explain(store, "t1", IDE, now=at(20)).to_json()
    assert revoked["fact"]["status"] == "REVOKED"
    assert any("revoked by u1" in n for n in revoked["status"])
    assert "memrepo rollback" in revoked["revoke"][1]


# -- export ------------------------------------------------------------------------------


def test_export_current_history_and_as_of(story: dict[str, Any]) -> None:
    store: Store = story["store"]
    now = list(audit.export(store, "t1"))
    assert len(now) == 4 and all(Fact.model_validate(f) for f in now)
    old = list(audit.export(store, "t1", as_of=story["snap"].tag))
    assert [f["value"] for f in old] == ["pnpm"]
    rows = list(audit.export(store, "t1", history=True))
    main_entries = [e for e in audit.audit(store, "t1") if e.ref == "main" and e.memory_id]
    assert len(rows) == len(main_entries)
    assert [r["commit"] for r in rows] == [e.op_id for e in main_entries]
    assert {r["op"] for r in rows} >= {"create", "update", "restore", "merge", "split"}


# -- CLI -------------------------------------------------------------------------------------


def run(store: Store, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--store", str(store.root), "--no-fsync", *args])


def test_cli_audit_explain_export(story: dict[str, Any], tmp_path: Path) -> None:
    store: Store = story["store"]
    r = run(store, "audit", "--tenant", "t1", "--op", "freeze", "--op", "unfreeze")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert len(lines) == 2 and " freeze " in lines[0] and '"pin it"' in lines[0]
    r = run(store, "audit", "--tenant", "t1", "--subject", "u2", "--json")
    assert r.exit_code == 0 and {e["op"] for e in json.loads(r.output)} == {
        "create", "expire", "renew"}
    r = run(store, "audit", "--tenant", "t1", "--op", "bogus")
    assert r.exit_code == 2
    r = run(store, "audit", "--tenant", "t1", "--since", "yesterday")
    assert r.exit_code == 1 and "bad_time" in r.output
    r = run(store, "explain", "--tenant", "t1", PM.spec)
    assert r.exit_code == 0 and "Who approved it: the gate committed it automatically" in r.output
    r = run(store, "explain", "--tenant", "t1", story["created"].memory_id, "--json")
    assert r.exit_code == 0 and json.loads(r.output)["valueCommit"] == story["created"].commit
    r = run(store, "explain", "--tenant", "t1", "0" * 32)
    assert r.exit_code == 1 and "no fact with memoryId" in r.output
    target = tmp_path / "facts.jsonl"
    r = run(store, "export", "--tenant", "t1", "--history", "-o", str(target))
    assert r.exit_code == 0 and target.read_text().count("\n") == len(
        list(audit.export(store, "t1", history=True)))
    r = run(store, "export", "--tenant", "t1", "--as-of", story["snap"].tag)
    assert r.exit_code == 0 and json.loads(r.output)["value"] == "pnpm"
