"""The store on real bare repositories: layout, immutability, plain-git readability."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import NOW, message, proposal
from memrepo import gate, layout, recall
from memrepo.errors import InputError, NotFoundError, StoreError
from memrepo.store import Store


def git(repo: Path, *args: str, input: str | None = None) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], check=True,
                          capture_output=True, text=True, input=input).stdout


def _commit_one(store: Store, text: str = "Remember that I use pnpm for packages.",
                value: str = "pnpm", mid: str = "m1") -> None:
    msg = message(text, mid=mid)
    store.tenant("t1", create=True).ingest([msg])
    quote = text.split(".")[0]
    decision = gate.submit(store, proposal(msg, quote, value=value), now=NOW)
    assert decision.decision.value == "COMMIT", decision


def test_init_refuses_a_foreign_directory(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "file").write_text("mine")
    with pytest.raises(StoreError) as err:
        Store.init(tmp_path / "x")
    assert err.value.code == "not_a_store"
    Store.init(tmp_path / "fresh")
    Store.init(tmp_path / "fresh")  # idempotent


def test_unknown_tenant_is_not_found(store: Store) -> None:
    with pytest.raises(NotFoundError):
        store.tenant("nobody")


def test_new_tenant_has_policy_on_main_and_nothing_else(store: Store) -> None:
    repo = store.tenant("t1", create=True)
    files = git(repo.path, "ls-tree", "-r", "--name-only", "main").split()
    assert files == ["policy.json"]
    assert git(repo.path, "rev-list", "--count", "main").strip() == "1"


def test_ingest_is_immutable_and_idempotent(store: Store) -> None:
    repo = store.tenant("t1", create=True)
    msg = message("hello")
    assert repo.ingest([msg]) == ["m1"]
    assert repo.ingest([msg]) == []
    with pytest.raises(InputError) as err:
        repo.ingest([message("hello, edited")])
    assert err.value.code == "message_changed"
    with pytest.raises(InputError) as err:
        repo.ingest([message("x", tenant="t2", mid="m2")])
    assert err.value.code == "cross_tenant"
    assert repo.message("m1", repo.state()) == msg
    # main holds approved changes only: ingest never touches it
    assert git(repo.path, "rev-list", "--count", "main").strip() == "1"


def test_commit_has_fact_record_message_and_trailers(store: Store) -> None:
    _commit_one(store)
    repo_path = store.tenant_path("t1")
    files = git(repo_path, "ls-tree", "-r", "--name-only", "main").split()
    prefixes = sorted({f.split("/")[0] for f in files})
    assert prefixes == ["facts", "ids", "messages", "policy.json", "proposals"]
    body = git(repo_path, "log", "-1", "--format=%B", "main")
    parsed = git(repo_path, "interpret-trailers", "--parse", input=body)
    trailers = dict(line.split(": ", 1) for line in parsed.splitlines())
    # the revoke-by-message index sits next to the message and names the fact's file
    messages = sorted(f for f in files if f.startswith("messages/"))
    bucket = messages[1].rsplit("/", 1)[0]
    assert messages == [f"{bucket}/m1.derived/{trailers['Memory-Id']}", f"{bucket}/m1.json"]
    (fact,) = [f for f in files if f.startswith("facts/")]
    assert git(repo_path, "cat-file", "-p", f"main:{messages[0]}").strip() == fact
    for key in ("Proposal-Id", "Payload-Hash", "Memory-Id", "Fact-Version", "Decision",
                "Policy-Version", "Operator", "Source-Message", "Conversation-Id"):
        assert key in trailers, key
    assert trailers["Decision"] == "COMMIT"
    assert trailers["Fact-Version"] == "1"
    assert trailers["Source-Message"] == "m1"


def test_plain_git_clone_and_log_p_read_well(store: Store, tmp_path: Path) -> None:
    _commit_one(store)
    m2 = message("Remember that I switched to yarn.", mid="m2")
    store.tenant("t1").ingest([m2])
    parked = gate.submit(store, proposal(m2, "Remember that I switched to yarn", value="yarn"),
                         now=NOW)
    assert parked.decision.value == "CONFIRM_REPLACE"
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(store.tenant_path("t1")), str(clone)], check=True)
    log = subprocess.run(["git", "-C", str(clone), "log", "-p", "--", "facts"], check=True,
                         capture_output=True, text=True).stdout
    assert '+  "value": "pnpm",' in log  # one field per line
    assert "Proposal-Id: " in log
    assert subprocess.run(["git", "-C", str(clone), "fsck", "--strict"],
                          capture_output=True).returncode == 0


def test_fact_files_are_canonical(store: Store) -> None:
    from memrepo import canonical

    _commit_one(store)
    repo = store.tenant("t1")
    for path, fact in repo.all_facts(repo.state()):
        raw = git(repo.path, "show", f"main:{path}").encode()
        assert raw == canonical.dumps_pretty(json.loads(raw))
        assert fact.value == "pnpm"


def test_recall_filters_and_history(store: Store) -> None:
    _commit_one(store)
    facts = recall.recall(store, "t1", "u1", now=NOW)
    assert [(f.kind, f.normalized_key, f.value, f.version) for f in facts] == [
        ("preference", "package_manager", "pnpm", 1)]
    assert recall.recall(store, "t1", "u1", kind="profile", now=NOW) == []
    assert recall.recall(store, "t1", "u1", scope={"kind": "project", "key": "x"}, now=NOW) == []
    assert recall.recall(store, "t1", "someone-else", now=NOW) == []
    stories = recall.history(store, "t1", facts[0].memory_id)
    assert len(stories) == 1
    assert stories[0].record is not None
    assert stories[0].record["evidenceQuote"] == "Remember that I use pnpm for packages"
    assert stories[0].trailers["Decision"] == "COMMIT"


def test_proposal_lookup_is_a_tree_lookup(store: Store) -> None:
    _commit_one(store)
    repo = store.tenant("t1")
    state = repo.state()
    files = git(repo.path, "ls-tree", "-r", "--name-only", "main").split()
    record_path = next(f for f in files if f.startswith("proposals/"))
    pid = record_path.rsplit("/", 1)[1].removesuffix(".json")
    assert record_path == layout.proposal_path(pid)
    found = repo.record(pid, state)
    assert found is not None and found.on_main and found.data["decision"] == "COMMIT"


def _git_fsck(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "--git-dir", str(path), "fsck", "--strict", "--no-dangling"],
                          capture_output=True, text=True)


def test_staged_objects_are_the_objects_libgit2_writes(store: Store) -> None:
    """A batch writes blobs, trees and commits itself (not through libgit2's object
    database); each must hash and serialise exactly as libgit2 does it on disk."""
    import pygit2

    from memrepo import _git

    tenant = store.tenant("t1", create=True)
    disk = tenant.repo
    state = tenant.state()
    author = _git.Author("Zoë Reviewer", "zoe@example.invalid")
    changes_of = [
        {"a/b/c.json": b'{"x": 1}\n', "a/d.json": b"[]\n", "top.txt": b"",
         "a.json": b"2", "a-b": b"3", "a0": b"4"},  # git sorts the tree "a" as "a/"
        {"a/b/c.json": None, "a/b/e.json": "中文".encode(), "z/y/x/w.json": b"1"},
        {"a/b/e.json": None, "a/d.json": None},  # leaves a/ empty: it disappears
    ]
    with tenant.staged() as batch:
        staged_tips = []
        for n, files in enumerate(changes_of):
            here = tenant.state()
            changes = {p: None if d is None else _git.write_blob(tenant.repo, d)
                       for p, d in files.items()}
            main_tip, _ = tenant.commit(here, main=changes, message=f"step {n}\n\nBody.\n",
                                        author=author, when=NOW) or (None, None)
            staged_tips.append(main_tip)
        assert batch.publish()
    # The same edits through libgit2 on disk, from the same starting commit.
    tip = state.main
    for n, files in enumerate(changes_of):
        tree = _git.tree_of(disk, tip)
        changes = {p: None if d is None else disk.create_blob(d) for p, d in files.items()}
        new_tree = _git.edit_tree(disk, tree, changes)  # libgit2's tree builder
        sig = pygit2.Signature(author.name, author.email, int(NOW.timestamp()), 0)
        tip = disk.create_commit(None, sig, sig, f"step {n}\n\nBody.\n", new_tree, [tip])
        assert tip == staged_tips[n], n
    assert _git.lookup(_git.tree_of(disk, tip), "a") is None
    assert _git_fsck(tenant.path).returncode == 0


@pytest.mark.parametrize(("name", "email", "offset", "parents"), [
    ("Zoë Reviewer", "zoe@example.invalid", 0, 1),
    ("memrepo gate", "gate@memrepo.invalid", -330, 0),
    ("李雷", "li@example.invalid", 540, 2),
])
def test_commits_are_the_bytes_libgit2_writes(store: Store, name: str, email: str,
                                              offset: int, parents: int) -> None:
    """Commits are formatted here for both paths (libgit2's create_commit hides write
    errors, see test_faults); each must be byte-for-byte what libgit2 writes."""
    import pygit2

    from memrepo import _git

    tenant = store.tenant("t1", create=True)
    disk = tenant.repo
    state = tenant.state()
    assert state.main is not None and state.main_tree is not None
    tree = state.main_tree.id
    parent_ids = [state.main] * parents
    sig = pygit2.Signature(name, email, 1_700_000_000, offset)
    message = "gate: commit\n\nProposal-Id: x\n"
    ours = _git.commit_bytes(tree, parent_ids, message, sig)
    theirs = disk.create_commit(None, sig, sig, message, tree, parent_ids)
    assert disk.odb.read(theirs)[1] == ours


def test_a_commit_on_a_missing_tree_or_parent_is_refused(store: Store) -> None:
    from memrepo import _git

    tenant = store.tenant("t1", create=True)
    state = tenant.state()
    assert state.main is not None and state.main_tree is not None
    ghost = _git.Oid(hex="0123456789abcdef0123456789abcdef01234567")
    author = _git.Author("t", "t@example.invalid")
    for tree, parents in ((ghost, [state.main]), (state.main_tree.id, [state.main, ghost])):
        with pytest.raises(StoreError) as info:
            _git.create_commit(tenant.repo, tree=tree, parents=parents, message="x\n",
                               author=author)
        assert info.value.code == "object_missing"
        assert str(ghost) in str(info.value)


@pytest.mark.parametrize("name", ["..", ".", ".git", ".GIT", "a\0b"])
def test_staged_tree_refuses_names_that_escape(store: Store, name: str) -> None:
    from memrepo import _git

    tenant = store.tenant("t1", create=True)
    with tenant.staged():
        blob = _git.write_blob(tenant.repo, b"x")
        with pytest.raises(StoreError) as info:
            _git.edit_tree(tenant.repo, tenant.state().main_tree, {f"facts/{name}/f": blob})
    assert info.value.code == "bad_path"


_PATHS = st.lists(st.sampled_from(["a", "b", "a.json", "a-b", "c"]), min_size=1, max_size=3
                  ).map("/".join)
_EDITS = st.lists(st.dictionaries(_PATHS, st.none() | st.binary(max_size=3), min_size=1,
                                  max_size=4), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(edits=_EDITS)
def test_staged_tree_edits_match_libgit2(edits: list[dict[str, bytes | None]]) -> None:
    """Any sequence of edits, staged (trees patched, reordered, evicted from the parsed
    cache) or made by libgit2's tree builder on disk, gives the same tree ids."""
    import tempfile

    import pygit2

    from memrepo import _git

    with tempfile.TemporaryDirectory() as tmp:
        disk = pygit2.init_repository(tmp, bare=True)
        staging = _git.open_staging(tmp)
        old_limit = _git.PARSED_TREES
        _git.PARSED_TREES = 4
        try:
            staged_tip = disk_tip = None
            for files in edits:
                try:  # libgit2's tree builder on disk
                    disk_new = _git.edit_tree(
                        disk, disk.get(disk_tip) if disk_tip else None,
                        {p: None if d is None else disk.create_blob(d)
                         for p, d in files.items()})
                except StoreError as exc:  # "a" and "a/b" in one edit: refused either way
                    assert exc.code == "path_conflict"
                    continue
                changes = {p: _git.write_blob(staging.repo, d) if d is not None else None
                           for p, d in files.items()}
                base = staging.repo.get(staged_tip) if staged_tip else None
                staged_new = _git.edit_tree(staging.repo, base, changes)
                assert staged_new == disk_new
                _git.write_pack(_git.pack_dir(disk), staging.objects, durable=False)
                staging.objects.clear()
                staged_tip = disk_tip = disk_new
                assert disk.get(disk_new) is not None
        finally:
            _git.PARSED_TREES = old_limit


_FILES = st.dictionaries(
    _PATHS, st.tuples(st.sampled_from([0o100644, 0o100755, 0o120000]), st.binary(max_size=2)),
    max_size=6)


def _build_tree(repo: object, files: dict[str, tuple[int, bytes]]) -> object:
    """A tree of ``files`` ({path: (mode, data)}) written with libgit2's tree builder;
    a path that is also a folder of another path is left out, as git would have it."""
    import pygit2

    assert isinstance(repo, pygit2.Repository)
    folders = {p.rsplit("/", 1)[0] for p in files if "/" in p}
    folders |= {f.rsplit("/", i)[0] for f in folders for i in range(1, f.count("/") + 1)}

    def level(prefix: str) -> pygit2.Oid:
        builder = repo.TreeBuilder()
        names = {p[len(prefix):].split("/")[0] for p in [*files, *folders]
                 if p.startswith(prefix)}
        for name in names:
            path = prefix + name
            if path in folders:
                builder.insert(name, level(path + "/"), pygit2.GIT_FILEMODE_TREE)
            else:
                mode, data = files[path]
                builder.insert(name, repo.create_blob(data), mode)
        return builder.write()

    return repo.get(level(""))


@settings(max_examples=60, deadline=None)
@given(old=_FILES, new=_FILES)
def test_tree_changes_match_git_diff_tree(tmp_path_factory: pytest.TempPathFactory,
                                          old: dict[str, tuple[int, bytes]],
                                          new: dict[str, tuple[int, bytes]]) -> None:
    """The store's own tree walk (hooks and the record index read changes through it)
    reports what ``git diff-tree -r`` reports: additions, deletions, new contents, new
    modes, and a file replaced by a folder as a deletion plus additions."""
    import pygit2

    from memrepo import _git

    path = tmp_path_factory.mktemp("diff")
    repo = pygit2.init_repository(str(path), bare=True)
    a, b = _build_tree(repo, old), _build_tree(repo, new)
    raw = git(path, "diff-tree", "-r", "-z", "--no-renames", str(a.id), str(b.id))  # type: ignore[attr-defined]
    fields = raw.split("\0")[:-1]
    expected = []
    for meta, name in zip(fields[::2], fields[1::2], strict=True):
        _old_mode, new_mode, old_id, new_id, _status = meta.lstrip(":").split(" ")
        expected.append((name, None if set(old_id) == {"0"} else old_id,
                         None if set(new_id) == {"0"} else new_id,
                         None if new_mode == "000000" else int(new_mode, 8)))
    got = [(c.path, c.old and str(c.old), c.new and str(c.new), c.new_mode)
           for c in _git.changed_entries(repo, a, b)]  # type: ignore[arg-type]
    assert sorted(got, key=str) == sorted(expected, key=str)
    assert _git.changed_entries(repo, a, a) == []  # type: ignore[arg-type]
