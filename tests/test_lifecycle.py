"""Lifecycle on real repositories: freeze, admin edits, merge, split, expiry, version cap,
approval binding and conflicts, revocation."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import NOW, message, proposal, said
from memrepo import _git, canonical, gate, layout, lifecycle, recall
from memrepo.cli import cli
from memrepo.errors import InputError
from memrepo.lifecycle import FactRef
from memrepo.proposal import Decision, DecisionKind, FactSource, FactStatus
from memrepo.store import Store

PM = FactRef("u1", {"kind": "global", "key": "default"}, "preference", "package_manager")
EDITOR = FactRef("u1", {"kind": "global", "key": "default"}, "preference", "editor")
IDE = FactRef("u1", {"kind": "project", "key": "shop"}, "preference", "editor")


def blob_at(store: Store, path: str) -> str:
    tenant = store.tenant("t1")
    obj = _git.lookup(tenant.state().main_tree, path)
    assert obj is not None
    return str(obj.id)


def pnpm(store: Store, **extra: Any) -> Decision:
    d = said(store, "m1", "Remember that I use pnpm for packages.", "Remember that I use pnpm",
             "pnpm", **extra)
    assert d.decision is DecisionKind.COMMIT, d
    return d


def parked(store: Store, **extra: Any) -> Decision:
    """A proposal the gate parks (low confidence) for the empty package_manager slot."""
    d = said(store, "m9", "Remember that I use yarn for packages.", "Remember that I use yarn",
             "yarn", confidence=0.5, **extra)
    assert d.decision is DecisionKind.NEEDS_CONFIRMATION, d
    return d


# -- freeze ------------------------------------------------------------------------------


def test_frozen_fact_survives_a_burst_of_automatic_proposals(store: Store) -> None:
    pnpm(store)
    done = lifecycle.freeze(store, "t1", PM, operator="admin", reason="confirmed by phone",
                            now=NOW)
    assert done.commit and done.facts[0].frozen and done.facts[0].version == 2
    tenant = store.tenant("t1")
    tip, blob = tenant.state().main, blob_at(store, PM.path)
    values = ["npm", "yarn", "bun", "pnpm"] * 4
    for i, value in enumerate(values):
        d = said(store, f"b{i}", f"Remember that I use {value} for packages.",
                 f"Remember that I use {value}", value)
        assert d.decision is DecisionKind.REJECT and "frozen" in d.reasons
    assert tenant.state().main == tip                 # not one commit on main
    assert blob_at(store, PM.path) == blob            # the file is untouched
    [fact] = recall.recall(store, "t1", "u1", now=NOW)
    assert fact.value == "pnpm" and fact.frozen       # and it stays readable
    again = lifecycle.freeze(store, "t1", PM, operator="admin", reason="again", now=NOW)
    assert again.commit is None                       # freezing twice writes nothing
    lifecycle.freeze(store, "t1", fact.memory_id, operator="admin", reason="done",
                     frozen=False, now=NOW)
    d = said(store, "m20", "Remember that I use bun for packages.", "Remember that I use bun",
             "bun")
    assert d.decision is DecisionKind.CONFIRM_REPLACE  # decided normally again


def test_freeze_needs_reason_and_operator_and_a_live_fact(store: Store) -> None:
    pnpm(store)
    with pytest.raises(InputError) as exc:
        lifecycle.freeze(store, "t1", PM, operator="admin", reason=" ", now=NOW)
    assert exc.value.code == "reason_required"
    with pytest.raises(InputError) as exc:
        lifecycle.freeze(store, "t1", PM, operator="", reason="x", now=NOW)
    assert exc.value.code == "operator_required"
    lifecycle.revoke(store, "t1", fact=PM, operator="u1", now=NOW)
    with pytest.raises(InputError) as exc:
        lifecycle.freeze(store, "t1", PM, operator="admin", reason="x", now=NOW)
    assert exc.value.code == "revoked"


def test_confirming_a_parked_proposal_for_a_frozen_fact_is_rejected(store: Store) -> None:
    lifecycle.admin_set(store, "t1", PM, "pnpm", operator="admin", reason="seed", now=NOW,
                        create_tenant=True)
    d = said(store, "m9", "Remember that I use yarn for packages.", "Remember that I use yarn",
             "yarn", confidence=0.5)
    assert d.decision is DecisionKind.CONFIRM_REPLACE
    lifecycle.freeze(store, "t1", PM, operator="admin", reason="pin", now=NOW)
    assert d.proposal_id and d.payload_hash
    out = lifecycle.confirm(store, "t1", d.proposal_id, d.payload_hash, approver="u1", now=NOW)
    assert out.decision in (DecisionKind.REJECT, DecisionKind.CONFLICT)
    assert recall.recall(store, "t1", "u1", now=NOW)[0].value == "pnpm"


# -- version cap -------------------------------------------------------------------------


def test_version_cap_default_twenty_parks_further_automatic_updates(store: Store) -> None:
    for i in range(19):
        lifecycle.admin_set(store, "t1", PM, "pnpm", operator="admin", reason=f"seed {i}",
                            now=NOW, create_tenant=True)
    d = pnpm(store)                              # v20: still below the cap when decided
    assert d.version == 20
    d = said(store, "m2", "Remember that I use pnpm, really.", "Remember that I use pnpm",
             "pnpm")
    assert d.decision is DecisionKind.NEEDS_CONFIRMATION and "version_cap" in d.reasons
    assert store.tenant("t1").fact_at(PM.path, store.tenant("t1").state()).version == 20


def test_version_cap_is_configurable_in_the_policy(store: Store) -> None:
    pnpm(store)
    tenant = store.tenant("t1")
    data = tenant.policy(tenant.state()).to_json()
    lifecycle.set_policy(store, "t1", dict(data, maxVersions=1), operator="admin",
                         reason="tight cap", now=NOW)
    d = said(store, "m2", "Remember that I use pnpm, really.", "Remember that I use pnpm",
             "pnpm")
    assert d.decision is DecisionKind.NEEDS_CONFIRMATION and "version_cap" in d.reasons
    # a person can still approve it
    assert d.proposal_id and d.payload_hash
    ok = lifecycle.confirm(store, "t1", d.proposal_id, d.payload_hash, approver="u1", now=NOW)
    assert ok.decision is DecisionKind.COMMIT and ok.version == 2


# -- approvals: binding and conflicts ------------------------------------------------------


def test_an_approval_cannot_be_replayed_onto_a_changed_value_or_expiry(store: Store) -> None:
    d = parked(store)
    assert d.proposal_id and d.payload_hash
    record = store.tenant("t1").record(d.proposal_id, store.tenant("t1").state())
    assert record is not None
    p = record.data["proposal"]
    ev_hash = p["evidence"]["sha256"]
    other_value = canonical.payload_hash(value="npm", confidence=p["confidence"],
                                         expires_at=p.get("expiresAt"), evidence_hash=ev_hash)
    other_expiry = canonical.payload_hash(value=p["value"], confidence=p["confidence"],
                                          expires_at="2030-01-01T00:00:00Z",
                                          evidence_hash=ev_hash)
    assert d.payload_hash not in (other_value, other_expiry)
    for wrong in (other_value, other_expiry):
        out = lifecycle.confirm(store, "t1", d.proposal_id, wrong, approver="u1", now=NOW)
        assert out.decision is DecisionKind.REJECT
        assert out.reasons == ("approval_payload_mismatch",)
    assert [r["proposalId"] for r in _pending(store)] == [d.proposal_id]  # still pending
    # the same proposalId with a changed expiry is a protocol conflict, not a new request
    msg = message("Remember that I use yarn for packages.", mid="m9")
    changed = proposal(msg, "Remember that I use yarn", value="yarn", confidence=0.5,
                       expiresAt="2030-01-01T00:00:00Z")
    assert gate.submit(store, changed, now=NOW).decision is DecisionKind.PROTOCOL_CONFLICT
    ok = lifecycle.confirm(store, "t1", d.proposal_id, d.payload_hash, approver="u1", now=NOW)
    assert ok.decision is DecisionKind.COMMIT
    again = lifecycle.confirm(store, "t1", d.proposal_id, d.payload_hash, approver="u1", now=NOW)
    assert again.decision is DecisionKind.REJECT and "not_pending" in again.reasons
    assert recall.recall(store, "t1", "u1", now=NOW)[0].approved_by == "u1"


def _pending(store: Store) -> list[dict[str, Any]]:
    tenant = store.tenant("t1")
    return tenant.all_pending(tenant.state())


def test_confirming_after_a_concurrent_change_is_a_conflict(store: Store) -> None:
    d = parked(store)
    lifecycle.edit(store, "t1", PM, "bun", operator="admin", reason="meanwhile", now=NOW)
    tip = store.tenant("t1").state().main
    assert d.proposal_id and d.payload_hash
    out = lifecycle.confirm(store, "t1", d.proposal_id, d.payload_hash, approver="u1", now=NOW)
    assert out.decision is DecisionKind.CONFLICT and out.reasons == ("fact_changed",)
    assert store.tenant("t1").state().main == tip            # nothing overwritten
    assert recall.recall(store, "t1", "u1", now=NOW)[0].value == "bun"
    assert _pending(store) == []                              # the question is closed


def test_conflict_detected_even_when_a_rollback_reuses_the_version_number(store: Store) -> None:
    from memrepo import snapshots

    lifecycle.admin_set(store, "t1", PM, "npm", operator="admin", reason="v1", now=NOW,
                        create_tenant=True)
    v1 = str(store.tenant("t1").state().main)
    lifecycle.admin_set(store, "t1", PM, "pnpm", operator="admin", reason="v2", now=NOW)
    d = said(store, "m9", "Remember that I use yarn for packages.", "Remember that I use yarn",
             "yarn", confidence=0.5)
    assert d.decision in (DecisionKind.CONFIRM_REPLACE, DecisionKind.NEEDS_CONFIRMATION)
    snapshots.rollback(store, "t1", to=v1, facts=[PM], operator="admin", reason="undo",
                       apply=True, now=NOW)
    lifecycle.admin_set(store, "t1", PM, "bun", operator="admin", reason="v2 again", now=NOW)
    assert store.tenant("t1").fact_at(PM.path, store.tenant("t1").state()).version == 2
    assert d.proposal_id and d.payload_hash
    out = lifecycle.confirm(store, "t1", d.proposal_id, d.payload_hash, approver="u1", now=NOW)
    assert out.decision is DecisionKind.CONFLICT


# -- revoke --------------------------------------------------------------------------------


def test_revoke_by_message_then_recall_returns_none_of_it(store: Store) -> None:
    msg = message("Remember that I use pnpm and Neovim.", mid="m1")
    store.tenant("t1", create=True).ingest([msg])
    for quote, key, value in (("Remember that I use pnpm", "package_manager", "pnpm"),
                              ("Remember that I use pnpm and Neovim", "editor", "Neovim")):
        d = gate.submit(store, proposal(msg, quote, key=key, value=value), now=NOW)
        assert d.decision is DecisionKind.COMMIT, d
    assert len(recall.recall(store, "t1", "u1", now=NOW)) == 2
    out = lifecycle.revoke(store, "t1", message_id="m1", operator="u1", now=NOW)
    assert len(out.revoked) == 2 and out.commit
    assert recall.recall(store, "t1", "u1", now=NOW) == []
    tenant = store.tenant("t1")
    facts = [f for _, f in tenant.all_facts(tenant.state())]
    assert {f.status for f in facts} == {FactStatus.REVOKED}      # kept, marked
    assert all(f.evidence is not None for f in facts)              # evidence stays
    assert len(recall.history(store, "t1", PM)) == 2               # history stays


# -- admin edits -------------------------------------------------------------------------


def test_edit_sets_value_as_admin_and_checks_the_type(store: Store) -> None:
    d = pnpm(store)
    assert d.memory_id
    out = lifecycle.edit(store, "t1", d.memory_id, "bun", operator="admin", reason="asked",
                         now=NOW)
    fact = out.facts[0]
    assert (fact.value, fact.version, fact.source) == ("bun", 2, FactSource.ADMIN_MANUAL)
    assert fact.evidence is None and fact.change_reason == "asked" and fact.operator == "admin"
    units = FactRef("u1", {"kind": "global", "key": "default"}, "preference", "units")
    with pytest.raises(InputError) as exc:
        lifecycle.edit(store, "t1", units, "furlongs", operator="admin", reason="x", now=NOW)
    assert exc.value.code == "value_not_in_enum"
    with pytest.raises(InputError):
        lifecycle.edit(store, "t1", PM, "x", operator="admin", reason="", now=NOW)
    repo = store.tenant("t1").repo
    oid = _git.resolve_commit(repo, out.commit or "")
    assert oid is not None
    trailers = _git.parse_trailers(_git.get_commit(repo, oid).message)
    assert trailers["Op"] == "edit" and trailers["Change-Reason"] == "asked"


def test_merge_keeps_one_revokes_the_other_and_both_sources_still_revoke(store: Store) -> None:
    store.tenant("t1", create=True).ingest([
        message("Remember that I use Neovim.", mid="m1"),
        message("Remember that I use Neovim for the shop project.", mid="m2")])
    tenant = store.tenant("t1")
    s = tenant.state()
    m1, m2 = tenant.message("m1", s), tenant.message("m2", s)
    assert m1 and m2
    assert gate.submit(store, proposal(m1, "Remember that I use Neovim", key="editor",
                                       value="Neovim"), now=NOW).decision is DecisionKind.COMMIT
    assert gate.submit(store, proposal(m2, "Remember that I use Neovim", key="editor",
                                       value="Neovim", scope={"kind": "project", "key": "shop"}),
                       now=NOW).decision is DecisionKind.COMMIT
    out = lifecycle.merge(store, "t1", EDITOR, IDE, "Neovim (everywhere)", operator="admin",
                          reason="same preference twice", now=NOW)
    merged, dropped = out.facts
    assert merged.value == "Neovim (everywhere)" and merged.status is FactStatus.ACTIVE
    assert dropped.status is FactStatus.REVOKED and dropped.memory_id != merged.memory_id
    assert set(merged.derived_from) == {"m1", "m2"} == set(dropped.derived_from)
    assert [f.value for f in recall.recall(store, "t1", "u1", now=NOW)] == ["Neovim (everywhere)"]
    # revoking the *other* fact's message reaches the merged fact
    gone = lifecycle.revoke(store, "t1", message_id="m2", operator="u1", now=NOW)
    assert gone.revoked == (merged.memory_id,)
    assert recall.recall(store, "t1", "u1", now=NOW) == []


def test_merge_refuses_nonsense(store: Store) -> None:
    pnpm(store)
    lifecycle.admin_set(store, "t1", FactRef("u2", {"kind": "global", "key": "default"},
                                             "preference", "editor"), "vim", operator="a",
                        reason="seed", now=NOW)
    with pytest.raises(InputError) as exc:
        lifecycle.merge(store, "t1", PM, PM, "pnpm", operator="a", reason="r", now=NOW)
    assert exc.value.code == "same_fact"
    with pytest.raises(InputError) as exc:
        lifecycle.merge(store, "t1", PM, "u2/global:default/preference/editor", "pnpm",
                        operator="a", reason="r", now=NOW)
    assert exc.value.code == "cross_subject"


def test_split_into_two_keys_revokes_the_source(store: Store) -> None:
    msg = message("Remember that I use VS Code and Neovim.", mid="m1")
    store.tenant("t1", create=True).ingest([msg])
    d = gate.submit(store, proposal(msg, "Remember that I use VS Code and Neovim", key="editor",
                                    value="VS Code"), now=NOW)
    assert d.decision is DecisionKind.COMMIT
    with pytest.raises(InputError) as exc:
        lifecycle.split(store, "t1", EDITOR, [(IDE, "Neovim")], operator="a", reason="r",
                        now=NOW)
    assert exc.value.code == "usage"
    out = lifecycle.split(store, "t1", EDITOR, [(EDITOR, "VS Code"), (IDE, "Neovim")],
                          operator="admin", reason="two editors in one value", now=NOW)
    assert [f.value for f in out.facts] == ["VS Code", "Neovim"]    # source kept as a part
    assert all(f.derived_from == ("m1",) for f in out.facts)
    pm = FactRef("u1", {"kind": "project", "key": "shop"}, "preference", "package_manager")
    with pytest.raises(InputError) as exc:                          # IDE is active now
        lifecycle.split(store, "t1", IDE, [(pm, "pnpm"), (EDITOR, "vim")], operator="a",
                        reason="r", now=NOW)
    assert exc.value.code == "target_exists"
    other = FactRef("u1", {"kind": "project", "key": "shop"}, "preference", "indent_style")
    out = lifecycle.split(store, "t1", IDE, [(pm, "pnpm"), (other, "tabs")], operator="a",
                          reason="wrong key", now=NOW)
    assert [f.status for f in out.facts] == [FactStatus.ACTIVE, FactStatus.ACTIVE,
                                             FactStatus.REVOKED]
    values = {f.normalized_key: f.value for f in recall.recall(store, "t1", "u1", now=NOW)}
    assert values == {"editor": "VS Code", "package_manager": "pnpm", "indent_style": "tabs"}
    assert len(lifecycle.revoke(store, "t1", message_id="m1", operator="u1", now=NOW).revoked) == 3


# -- expiry --------------------------------------------------------------------------------


def test_expire_sweeps_into_renewal_candidates_and_confirm_renews(store: Store) -> None:
    d = pnpm(store, expiresAt="2026-10-20T00:00:00Z")
    later = NOW + timedelta(days=10)
    assert recall.recall(store, "t1", "u1", now=later) == []           # hidden at once
    tip = store.tenant("t1").state().main
    out = lifecycle.expire(store, "t1", now=later)
    assert len(out.candidates) == 1 and out.commit
    assert store.tenant("t1").state().main == tip                       # nothing deleted
    [record] = _pending(store)
    assert record["candidate"] == "renewal" and record["memoryId"] == d.memory_id
    assert record["evidenceQuote"] == "Remember that I use pnpm"
    assert lifecycle.expire(store, "t1", now=later).skipped == ((d.memory_id, "already_pending"),)
    # a new explicit value is not blocked by the renewal question
    d2 = said(store, "m5", "Remember that I use bun for packages.", "Remember that I use bun",
              "bun", now=later)
    assert d2.decision is DecisionKind.COMMIT
    stale = lifecycle.confirm(store, "t1", record["proposalId"], record["payloadHash"],
                              approver="u1", now=later)
    assert stale.decision is DecisionKind.CONFLICT                      # it changed meanwhile


def test_confirming_a_renewal_renews_with_the_proposed_expiry(store: Store) -> None:
    d = pnpm(store, expiresAt="2026-10-20T00:00:00Z")
    later = NOW + timedelta(days=10)
    [record] = lifecycle.expire(store, "t1", now=later).candidates
    until = record["proposal"]["expiresAt"]
    bad = lifecycle.confirm(store, "t1", record["proposalId"], "f" * 64, approver="u1",
                            now=later)
    assert bad.reasons == ("approval_payload_mismatch",)
    ok = lifecycle.confirm(store, "t1", record["proposalId"], record["payloadHash"],
                           approver="u1", now=later)
    assert ok.decision is DecisionKind.COMMIT and ok.memory_id == d.memory_id
    [fact] = recall.recall(store, "t1", "u1", now=later)
    assert fact.value == "pnpm" and fact.expires_at == until and fact.approved_by == "u1"
    assert fact.evidence is not None and fact.version == 2
    assert _pending(store) == []


def test_declined_renewal_leaves_the_fact_expired(store: Store) -> None:
    pnpm(store, expiresAt="2026-10-20T00:00:00Z")
    later = NOW + timedelta(days=10)
    [record] = lifecycle.expire(store, "t1", now=later).candidates
    out = lifecycle.decline(store, "t1", record["proposalId"], operator="u1", now=later)
    assert "declined_by_subject" in out.reasons
    assert recall.recall(store, "t1", "u1", now=later) == [] and _pending(store) == []


# -- CLI -----------------------------------------------------------------------------------


def run(store: Store, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--store", str(store.root), "--no-fsync", *args])


def test_cli_freeze_edit_merge_split_expire(store: Store) -> None:
    pnpm(store, expiresAt="2026-10-20T00:00:00Z")
    spec = PM.spec
    r = run(store, "freeze", "--tenant", "t1", spec, "--reason", "pin", "--operator", "admin")
    assert r.exit_code == 0, r.output
    assert "frozen" in r.output and "freeze: commit" in r.output
    r = run(store, "freeze", "--tenant", "t1", spec, "--operator", "admin")
    assert r.exit_code == 2 and "--reason" in r.output                 # mandatory
    r = run(store, "unfreeze", "--tenant", "t1", spec, "--reason", "ok", "--operator", "admin",
            "--json")
    assert r.exit_code == 0 and json.loads(r.output)["facts"][0]["frozen"] is False
    r = run(store, "edit", "--tenant", "t1", spec, "--value", "bun", "--reason", "asked",
            "--operator", "admin", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["facts"][0]["value"] == "bun"
    r = run(store, "edit", "--tenant", "t1", "u1/global:default/preference/units",
            "--value", "furlongs", "--reason", "x", "--operator", "admin")
    assert r.exit_code == 1 and "value_not_in_enum" in r.output
    r = run(store, "edit", "--tenant", "t1", "nonsense/spec", "--value", "x", "--reason", "x",
            "--operator", "a")
    assert r.exit_code == 1 and "SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY" in r.output
    r = run(store, "edit", "--tenant", "t1", EDITOR.spec, "--value", "vim", "--reason", "seed",
            "--operator", "admin")
    assert r.exit_code == 0
    r = run(store, "edit", "--tenant", "t1", IDE.spec, "--value", "nvim", "--reason", "seed",
            "--operator", "admin")
    r = run(store, "merge", "--tenant", "t1", EDITOR.spec, IDE.spec, "--value", "Neovim",
            "--reason", "dup", "--operator", "admin")
    assert r.exit_code == 0, r.output
    assert "REVOKED" in r.output and "merge: commit" in r.output
    r = run(store, "split", "--tenant", "t1", EDITOR.spec,
            "--into", f"{EDITOR.spec}=Neovim", "--into", f"{IDE.spec}=VS Code",
            "--reason", "two", "--operator", "admin", "--json")
    assert r.exit_code == 0, r.output
    assert [f["value"] for f in json.loads(r.output)["facts"]] == ["Neovim", "VS Code"]
    r = run(store, "split", "--tenant", "t1", EDITOR.spec, "--into", "bad", "--into", "bad2",
            "--reason", "x", "--operator", "a")
    assert r.exit_code == 1 and "SPEC=VALUE" in r.output
    lifecycle.admin_set(store, "t1", EDITOR, "vim", operator="a", reason="expiring",
                        expires_at="2026-10-15T00:00:00Z", now=NOW)
    r = run(store, "expire", "--tenant", "t1", "--now", "2026-11-01T00:00:00Z")
    assert r.exit_code == 0, r.output
    assert "renew until" in r.output and "1 renewal candidate(s)" in r.output
    r = run(store, "pending", "--tenant", "t1")
    assert r.exit_code == 0 and "renewal_candidate" in r.output
    r = run(store, "expire", "--tenant", "t1", "--now", "2026-11-01T00:00:00Z", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["candidates"] == []


def test_cli_help_has_examples() -> None:
    for name in ("snapshot", "rollback", "freeze", "unfreeze", "edit", "merge", "split",
                 "expire", "export", "explain", "audit"):
        r = CliRunner().invoke(cli, [name, "--help"])
        assert r.exit_code == 0 and "Example" in r.output, name
        assert "--json" in r.output or name == "export", name   # export always writes JSONL


def test_memory_ids_and_paths_agree() -> None:
    mid = layout.memory_id("t1", "u1", PM.scope, PM.kind, PM.normalized_key)
    assert len(mid) == 32 and lifecycle.fact_target(mid) == mid
    assert lifecycle.parse_fact_ref(PM.spec) == PM
