"""Ids from requests never escape their folder and never collide."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import message, proposal
from memrepo import gate, layout
from memrepo.store import Store

HOSTILE = [
    "../etc", "..", ".", "a/b", "/abs", "a\\b", "x" * 10_000, "CON", "Ünïcödé", "ｕ1",
    "u1 ", "u1\u200b", ".git", "a..b", "-rf", "_sneaky", "a%2Fb", "тест", "用户",
    "u\u0131", "ui", "UI", "Ui", "x" * 64, "x" * 65,
]


@pytest.mark.parametrize("raw", HOSTILE)
def test_component_is_one_safe_segment(raw: str) -> None:
    comp = layout.component(raw)
    assert "/" not in comp and "\\" not in comp and "\x00" not in comp
    assert comp not in (".", "..", "") and not comp.startswith(".")
    assert len(comp) <= 64
    assert comp.isascii()


def test_component_is_injective_over_hostile_set() -> None:
    comps = [layout.component(r) for r in HOSTILE]
    assert len(set(comps)) == len(set(HOSTILE))


def test_plain_ids_read_naturally() -> None:
    assert layout.component("u-dev-lin") == "u-dev-lin"
    assert layout.fact_path("u-dev-lin", {"kind": "global", "key": "default"}, "preference",
                            "editor").endswith("/u-dev-lin/global@default/preference@editor.json")


def test_fact_paths_are_injective_over_hostile_scopes_kinds_and_keys() -> None:
    """Scope kind and key, and kind and key, share a path component each: no two
    different slots may be given one path, whatever the ids hold (``@``, dots, slashes)."""
    parts = ["a", "a@b", "b", "a.b", "@", "x@y.json", *HOSTILE[:6]]
    slots = {(sk, sv, k, n) for sk in parts for sv in parts[:4] for k in parts[:4] for n in parts}
    paths = {layout.fact_path("u1", {"kind": sk, "key": sv}, k, n) for sk, sv, k, n in slots}
    assert len(paths) == len(slots)
    assert all(p.startswith(layout.subject_dir("u1") + "/") and p.count("/") == 5 for p in paths)


@pytest.mark.parametrize("mid", ["m1", "m1.derived", "m1.json", "m1.derived.json", *HOSTILE])
def test_derived_index_is_apart_from_every_message_file(mid: str) -> None:
    """A message's ``.derived`` folder sits next to message files in the same fan-out
    bucket, so no message id may name another's folder or file."""
    mem = "0" * 32
    path = layout.derived_path(mid, mem)
    assert layout.derived_memory_id(path) == mem
    assert path.rsplit("/", 1)[0] == layout.derived_dir(mid)
    others = ["m1", "m1.derived", "m1.json", "m1.derived.json", *HOSTILE]
    taken = {layout.message_path(o) for o in others} | {layout.derived_dir(o) for o in others
                                                        if o != mid}
    assert layout.derived_dir(mid) not in taken
    assert layout.derived_memory_id(layout.message_path(mid)) is None


@pytest.mark.parametrize("path", ["messages/ab/cd/m1.json", "facts/ab/cd/s/g/d/k/x.json",
                                  "messages/ab/cd/m1.derived", "ids/ab/cd/" + "0" * 32,
                                  "messages/ab/cd/m1/" + "0" * 32])
def test_derived_memory_id_names_only_index_entries(path: str) -> None:
    assert layout.derived_memory_id(path) is None


def _ls_tree(repo: Path, ref: str) -> list[str]:
    out = subprocess.run(["git", "--git-dir", str(repo), "ls-tree", "-r", "--name-only", ref],
                         check=True, capture_output=True, text=True).stdout
    return out.splitlines()


@pytest.mark.parametrize("hostile", ["../../evil", "a/../../b", "../t2", "用户/../x", "x" * 200])
def test_hostile_subject_and_scope_stay_in_their_folder(store: Store, hostile: str) -> None:
    msg = message("Remember that I use pnpm for packages.", author=hostile)
    store.tenant("t1", create=True).ingest([msg])
    data = proposal(msg, "Remember that I use pnpm", subject=hostile,
                    scope={"kind": "project", "key": hostile})
    decision = gate.submit(store, data)
    assert decision.decision.value == "COMMIT", decision
    files = _ls_tree(store.tenant_path("t1"), "main")
    fact_files = [f for f in files if f.startswith("facts/")]
    assert len(fact_files) == 1
    parts = fact_files[0].split("/")
    assert len(parts) == 6 and ".." not in parts  # facts/<fan>/<fan>/<subject>/…
    assert parts[3] == layout.component(hostile)
    assert parts[4] == f"project@{layout.component(hostile)}"
    assert all(f.split("/")[0] in {"facts", "ids", "proposals", "messages", "derived",
                                   "policy.json"} for f in files)
    # and nothing appeared on disk outside the store
    assert sorted(p.name for p in store.root.iterdir()) == ["memrepo-store.json", "tenants"]


@pytest.mark.parametrize("tenant", ["../t", "a/b", "T1", "ｔ1", "x" * 300])
def test_hostile_tenant_ids_get_their_own_repository(store: Store, tenant: str) -> None:
    if len(tenant) > 256:
        with pytest.raises(Exception):  # noqa: B017 - the model refuses it before any I/O
            message("hi", tenant=tenant)
        return
    store.tenant(tenant, create=True).ingest([message("hi", tenant=tenant)])
    repos = list((store.root / "tenants").iterdir())
    assert len(repos) == 1 and repos[0].parent == store.root / "tenants"
    assert store.tenants() == [tenant]
