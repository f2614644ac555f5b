"""SQLite full-text and vector projections: search, revocation, rebuild, verify, CLI."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import NOW, message, proposal
from memrepo import events, gate, layout, lifecycle, projections
from memrepo.cli import cli
from memrepo.errors import InputError
from memrepo.proposal import DecisionKind
from memrepo.store import Store, TenantRepo
from test_events import Change, commit_facts, fresh, generate_history, snapshot

GLOBAL = {"kind": "global", "key": "default"}


def both(store: Store, tenant: str = "t1") -> list[projections.SqliteProjection]:
    return projections.open_projections(store, tenant)


def values(hits: Sequence[projections.Hit]) -> list[Any]:
    return [h.value for h in hits]


# -- text analysis -------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "terms"), [
    ("Package_Manager pnpm", "package manager pnpm"),       # words, case-folded, _ splits
    ("我住在北京", "我 住 在 北 京 我住 住在 在北 北京"),       # CJK: characters + bigrams
    ("用pnpm管理", "用 pnpm 管 理 管理"),                      # mixed scripts split apart
    ("Ｆｕｌｌｗｉｄｔｈ", "fullwidth"),                       # NFKC
    ("東京タワー", "東 京 タ ワ ー 東京 京タ タワ ワー"),       # Japanese kana too
    ("", ""),
])
def test_index_terms(text: str, terms: str) -> None:
    assert projections.index_terms(text) == terms


@pytest.mark.parametrize(("query", "expr"), [
    ("pnpm", '("pnpm"*)'),
    ("北京", '("北京")'),                                     # a two-character word: one bigram
    ("北", '("北")'),
    ("住在北京", '("住在" AND "在北" AND "北京")'),
    ("vs code 编辑器", '("vs"* AND "code"* AND "编辑" AND "辑器")'),
    ('" OR *', '("or"*)'),                                     # operators become plain words
    ('"*()-:', None),                                          # no term: nothing to match
])
def test_match_expression(query: str, expr: str | None) -> None:
    assert projections.match_expression(query) == expr


def test_hash_embedder_is_deterministic_and_normalised() -> None:
    e = projections.HashEmbedder(64)
    a, b, zero = e.embed(["prefers pnpm", "prefers pnpm", ""])
    assert list(a) == list(b) and len(a) == 64
    assert abs(sum(x * x for x in a) - 1.0) < 1e-9
    assert not any(zero)
    assert e.name == "hash-ngram-v1-64"


# -- search ---------------------------------------------------------------------------------


def _gate_commit(store: Store, msg: Any, quote: str, **kw: Any) -> str:
    decision = gate.submit(store, proposal(msg, quote, **kw), now=NOW)
    assert decision.decision is DecisionKind.COMMIT, decision
    assert decision.memory_id is not None
    return decision.memory_id


def _seed_bilingual(store: Store) -> TenantRepo:
    tenant = store.tenant("t1", create=True)
    m1 = message("Remember that I use pnpm for node projects.", mid="m1")
    m2 = message("以后请用中文回复我。", mid="m2")
    tenant.ingest([m1, m2])
    _gate_commit(store, m1, "Remember that I use pnpm", key="package_manager", value="pnpm")
    _gate_commit(store, m2, "以后请用中文回复我", key="reply_language", value="中文")
    lifecycle.admin_set(store, "t1", lifecycle.FactRef("u1", GLOBAL, "preference", "editor"),
                        "VS Code 编辑器", operator="admin", reason="seed", now=NOW)
    lifecycle.admin_set(store, "t1", lifecycle.FactRef("u2", GLOBAL, "preference", "drink"),
                        "绿茶 green tea", operator="admin", reason="seed", now=NOW)
    return tenant


@pytest.mark.parametrize(("query", "expected"), [
    ("pnpm", ["pnpm"]),
    ("PNP", ["pnpm"]),                         # prefix, case-insensitive
    ("package manager", ["pnpm"]),             # the key's words
    ("remember", ["pnpm"]),                    # a word of the evidence quote only
    ("中文", ["中文"]),
    ("回复", ["中文"]),                          # a Chinese word inside the quote
    ("编辑器", ["VS Code 编辑器"]),
    ("code", ["VS Code 编辑器"]),
    ("green tea", []),                         # another subject's fact
    ("nothing like this", []),
])
def test_full_text_search_in_english_and_chinese(store: Store, query: str,
                                                 expected: list[str]) -> None:
    _seed_bilingual(store)
    hits = projections.search(store, "t1", "u1", query, now=NOW)
    assert values(hits)[:len(expected)] == expected
    if not expected:
        assert hits == []


def test_vector_search_ranks_by_similarity(store: Store) -> None:
    _seed_bilingual(store)
    hits = projections.search(store, "t1", "u1", "pnpm package", vector=True, now=NOW)
    assert values(hits)[0] == "pnpm"
    hits = projections.search(store, "t1", "u1", "请用中文", vector=True, now=NOW)
    assert values(hits)[0] == "中文"
    assert all(h.subject_id == "u1" for h in hits)
    assert projections.search(store, "t1", "u1", "", vector=True, now=NOW) == []


def test_search_syncs_first(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "neovim")])
    assert values(projections.search(store, "t1", "u1", "neovim")) == ["neovim"]
    commit_facts(tenant, [Change("u1", "editor", "helix")])
    assert projections.search(store, "t1", "u1", "neovim") == []
    assert values(projections.search(store, "t1", "u1", "helix")) == ["helix"]
    assert values(projections.search(store, "t1", "u1", "helix", vector=True)) == ["helix"]


# -- revocation, expiry -------------------------------------------------------------------


def _index_mids(projection: projections.SqliteProjection) -> set[str]:
    conn = projection.conn
    table, key = (("facts_fts", "rowid") if isinstance(projection, projections.FactsProjection)
                  else ("vectors", "id"))
    return {r[0] for r in conn.execute(
        f"SELECT f.memory_id FROM {table} x JOIN facts f ON f.id = x.{key}")}


def test_revocation_by_message_leaves_no_residue(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    msg = message("Remember that I use pnpm, and my editor is always Neovim.", mid="m9")
    tenant.ingest([msg])
    a = _gate_commit(store, msg, "Remember that I use pnpm", key="package_manager",
                     value="pnpm")
    b = _gate_commit(store, msg, "my editor is always Neovim", key="editor", value="Neovim")
    lifecycle.admin_set(store, "t1", lifecycle.FactRef("u1", GLOBAL, "preference", "drink"),
                        "green tea", operator="admin", reason="seed", now=NOW)
    c = layout.memory_id("t1", "u1", GLOBAL, "preference", "drink")
    ps = both(store)
    for p in ps:
        p.sync(now=NOW)
        assert _index_mids(p) == {a, b, c}
    result = lifecycle.revoke(store, "t1", message_id="m9", operator="u1", now=NOW)
    assert set(result.revoked) == {a, b}
    tip = tenant.state().main
    assert tip is not None
    assert {e.op for e in events.events_between(tenant, None) if e.commit == str(tip)} == {"revoke"}
    for p in ps:
        assert p.sync(now=NOW).events == 2      # one commit, two facts
        assert _index_mids(p) == {c}
        assert p.search("u1", "pnpm", now=NOW) == []
        assert p.search("u1", "neovim", now=NOW) == []
        assert values(p.search("u1", "green tea", now=NOW)) == ["green tea"]
        p.close()
    reports = projections.verify_all(store, "t1", now=NOW)
    assert [r.revocation_residue for r in reports] == [0, 0]
    assert all(r.ok for r in reports)


def test_expired_facts_leave_the_index(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "vim", expires="2026-10-14T10:00:00Z"),
                          Change("u1", "drink", "coffee", expires="2020-01-01T00:00:00Z")])
    for p in both(store):
        p.sync(now=NOW)
        assert values(p.search("u1", "vim", now=NOW)) == ["vim"]
        assert p.search("u1", "coffee", now=NOW) == []          # expired when applied
        later = NOW.replace(hour=11)
        assert p.search("u1", "vim", now=later) == []           # expired since
        assert p.purge_expired(later) == 1
        assert _index_mids(p) == set()
        p.close()
    assert all(r.ok for r in projections.verify_all(store, "t1", now=NOW.replace(hour=11)))


# -- rebuild, replay, drift ---------------------------------------------------------------


def test_replaying_every_event_twice_changes_nothing(store: Store, tmp_path: Path) -> None:
    tenant = store.tenant("t1", create=True)
    written = generate_history(tenant, 300, seed=9)
    for p in both(store):
        p.sync(batch_size=37)
        once = snapshot(p)
        tip = tenant.state().main
        assert tip is not None
        everything = list(events.batches(tenant, None, tip, batch_size=10**6))[0]
        with p.conn:
            p.conn.execute("DELETE FROM meta WHERE key = 'position'")
        p.apply(everything)
        p.apply(events.Batch(str(tip), str(tip), (), everything.events))
        assert len(everything.events) == written
        assert snapshot(p) == once
        assert snapshot(fresh(p, tmp_path / f"{p.kind}.sqlite")) == once
        p.close()


def test_rebuild_at_an_old_commit_then_sync(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    old = commit_facts(tenant, [Change("u1", "editor", "vim")])
    commit_facts(tenant, [Change("u1", "editor", "emacs")])
    projection = projections.FactsProjection(store, "t1")
    assert projection.rebuild(at=old) == 1
    assert projection.position() == old
    assert events.read_ref(tenant, projection.name) == old
    assert values(projection.search("u1", "vim")) == ["vim"]
    assert projection.sync().commits == 1
    assert values(projection.search("u1", "emacs")) == ["emacs"]
    with pytest.raises(InputError):
        projection.rebuild(at="no-such-commit")
    projection.close()


def test_a_position_main_no_longer_contains_means_rebuild(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "vim")])
    projection = projections.FactsProjection(store, "t1")
    projection.sync()
    with projection.conn:          # as if main had been rewritten under the projection
        projection.conn.execute("UPDATE meta SET value = ? WHERE key = 'position'",
                                ("0" * 40,))
    projection.sync()
    assert projection.position() == str(tenant.state().main)
    assert values(projection.search("u1", "vim")) == ["vim"]
    projection.close()


def test_verify_detects_injected_drift(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "vim"), Change("u1", "drink", "tea"),
                          Change("u1", "units", "metric"), Change("u1", "diet", "vegan")])
    commit_facts(tenant, [Change("u1", "diet", revoke=True)])
    mid = {k: layout.memory_id("t1", "u1", GLOBAL, "preference", k)
           for k in ("editor", "drink", "units", "diet")}
    facts, vectors = both(store)
    for p in (facts, vectors):
        p.sync()
    assert all(r.ok for r in projections.verify_all(store, "t1", sync=False))

    def row_id(p: projections.SqliteProjection, key: str) -> int:
        return p.conn.execute("SELECT id FROM facts WHERE memory_id = ?", (mid[key],)
                              ).fetchone()[0]

    units_row = row_id(facts, "units")
    with facts.conn as c:
        c.execute("DELETE FROM facts_fts WHERE rowid = ?", (row_id(facts, "editor"),))
        c.execute("UPDATE facts SET value = '\"coffee\"' WHERE memory_id = ?", (mid["drink"],))
        c.execute("DELETE FROM facts WHERE memory_id = ?", (mid["units"],))
        c.execute("INSERT INTO facts(memory_id, version, status, subject_id, value, path,"
                  " searchable) VALUES ('feedface', 1, 'ACTIVE', 'u1', '1', 'x', 1)")
    with vectors.conn as c:                    # a revoked fact put back into the index
        c.execute("INSERT INTO vectors(id, subject_id, vec) VALUES (?, 'u1', ?)",
                  (row_id(vectors, "diet"), b"\0" * 4 * vectors.embedder.dim))
        c.execute("UPDATE facts SET version = 7 WHERE memory_id = ?", (mid["drink"],))
    reports = {r.projection: r for r in projections.verify_all(store, "t1", sync=False)}
    assert {(d.kind, d.memory_id, d.detail) for d in reports[facts.name].drift} == {
        ("missing", mid["editor"], "v1 is not in the facts index"),
        ("stale", mid["drink"], "v1 value differs from main"),
        ("missing", mid["units"], "v1 is live on main, not here"),
        ("extra", "feedface", "v1 is live here, not on main"),
        ("extra", f"row:{units_row}", "facts index row without a fact"),
    }
    assert {(d.kind, d.memory_id, d.detail) for d in reports[vectors.name].drift} == {
        ("stale", mid["drink"], "v7 here, v1 on main"),
        ("extra", mid["diet"], "vectors index row of a fact that is not live"),
    }
    assert reports[facts.name].revocation_residue == 0
    assert reports[vectors.name].revocation_residue == 1
    assert not any(r.ok for r in reports.values())

    runner = CliRunner()
    out = runner.invoke(cli, ["--store", str(store.root), "projections", "verify",
                              "--tenant", "t1", "--no-sync"])
    assert out.exit_code == 1
    assert f"missing  {mid['editor']}  v1 is not in the facts index" in out.output
    assert "revocation residue 1" in out.output
    out = runner.invoke(cli, ["--store", str(store.root), "projections", "rebuild",
                              "--tenant", "t1"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(cli, ["--store", str(store.root), "projections", "verify",
                              "--tenant", "t1", "--json"])
    assert out.exit_code == 0, out.output
    assert [r["ok"] for r in json.loads(out.output)] == [True, True]
    facts.close()
    vectors.close()


def test_a_lagging_projection_is_drift_unless_synced(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "vim")])
    projections.sync_all(store, "t1")
    commit_facts(tenant, [Change("u1", "editor", "emacs"), Change("u1", "drink", "tea")])
    lagging = projections.verify_all(store, "t1", sync=False)
    assert {(d.kind, d.detail) for d in lagging[0].drift} == {
        ("stale", "v1 here, v2 on main"), ("missing", "v1 is live on main, not here")}
    assert all(r.ok for r in projections.verify_all(store, "t1"))


# -- embedders, files ------------------------------------------------------------------------


class TinyEmbedder:
    """A pluggable embedder (what a model-backed one would look like)."""

    name = "tiny-test"
    dim = 3

    def embed(self, texts: Sequence[str]) -> list[Sequence[float]]:
        return [[1.0, float("tea" in t), float("vim" in t)] for t in texts]


def test_a_pluggable_embedder_gets_its_own_file(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "vim"), Change("u1", "drink", "tea")])
    embedder = projections.load_embedder(f"{__name__}:TinyEmbedder")
    assert embedder.name == "tiny-test"
    hits = projections.search(store, "t1", "u1", "tea", vector=True, embedder=embedder)
    assert values(hits)[0] == "tea"
    folder = projections.projection_dir(store, "t1")
    assert (folder / "vectors-tiny-test.sqlite").exists()
    assert not (folder / "vectors-hash-ngram-v1-256.sqlite").exists()
    assert all(r.ok for r in projections.verify_all(store, "t1", embedder=embedder))
    for spec in ("nope", "hash:x", "memrepo:nothing_here"):
        with pytest.raises(InputError):
            projections.load_embedder(spec)


def test_an_embedder_change_recreates_the_vectors(store: Store, tmp_path: Path) -> None:
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "vim")])
    path = tmp_path / "v.sqlite"
    p = projections.VectorProjection(store, "t1", embedder=projections.HashEmbedder(64),
                                     path=path)
    p.sync()
    p.close()
    q = projections.VectorProjection(store, "t1", embedder=projections.HashEmbedder(32),
                                     path=path)
    assert q.position() is None                       # old vectors dropped, not mixed
    q.sync()
    assert values(q.search("u1", "vim")) == ["vim"]
    q.close()


def test_a_projection_file_belongs_to_one_tenant(store: Store, tmp_path: Path) -> None:
    store.tenant("t1", create=True)
    store.tenant("t2", create=True)
    path = tmp_path / "f.sqlite"
    projections.FactsProjection(store, "t1", path=path).sync()
    with pytest.raises(Exception) as info:
        projections.FactsProjection(store, "t2", path=path).position()
    assert getattr(info.value, "code", "") == "projection_tenant_mismatch"


def test_fts_integrity_is_part_of_verify(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    commit_facts(tenant, [Change("u1", "editor", "vim")])
    facts = projections.FactsProjection(store, "t1")
    facts.sync()
    assert facts._index_problems() == []
    facts.close()
    conn = sqlite3.connect(facts.path)
    # Corrupt the FTS5 index behind its back (the content stays, the postings go).
    conn.execute("DELETE FROM facts_fts_data WHERE id > 10")
    conn.commit()
    conn.close()
    assert projections.FactsProjection(store, "t1")._index_problems() != []


# -- CLI ------------------------------------------------------------------------------------


def test_cli_search_and_sync(store: Store) -> None:
    _seed_bilingual(store)
    runner = CliRunner()
    base = ["--store", str(store.root)]
    out = runner.invoke(cli, [*base, "search", "--tenant", "t1", "--subject", "u1", "中文",
                              "--json"])
    assert out.exit_code == 0, out.output
    hits = json.loads(out.output)
    assert [h["value"] for h in hits] == ["中文"]
    assert hits[0]["evidenceQuote"] == "以后请用中文回复我"
    out = runner.invoke(cli, [*base, "search", "--tenant", "t1", "--subject", "u1", "pnpm",
                              "--vector"])
    assert out.exit_code == 0 and "preference/package_manager [global:default] = \"pnpm\"" \
        in out.output
    out = runner.invoke(cli, [*base, "search", "--tenant", "t1", "--subject", "u9", "pnpm"])
    assert out.output == "(no live facts of u9 match)\n"
    out = runner.invoke(cli, [*base, "projections", "sync", "--tenant", "t1"])
    assert out.exit_code == 0 and "+0 commit(s)" in out.output
    out = runner.invoke(cli, [*base, "search", "--tenant", "nope", "--subject", "u1", "x"])
    assert out.exit_code == 1 and out.output.startswith("Error: no tenant 'nope'")


def test_rollback_puts_the_old_value_back_into_every_projection(store: Store) -> None:
    from memrepo import snapshots

    ref = lifecycle.FactRef("u1", GLOBAL, "preference", "editor")
    lifecycle.admin_set(store, "t1", ref, "Helix", operator="admin", reason="seed", now=NOW,
                        create_tenant=True)
    first = store.tenant("t1").state().main
    lifecycle.admin_set(store, "t1", ref, "Emacs", operator="admin", reason="switch", now=NOW)
    ps = both(store)
    for p in ps:
        p.sync(now=NOW)
    snapshots.rollback(store, "t1", to=str(first), facts=[ref], operator="admin",
                       reason="undo the switch", apply=True, now=NOW)
    for p in ps:
        p.sync(now=NOW)
        assert values(p.search("u1", "helix", now=NOW))[:1] == ["Helix"]
        assert "Emacs" not in values(p.search("u1", "emacs", now=NOW))
        p.close()
    assert all(r.ok for r in projections.verify_all(store, "t1", now=NOW))
