"""The only module that imports pygit2: object writes, tree edits, compare-and-swap refs.

Everything that can go wrong inside libgit2 is mapped here to :class:`StoreError`, so
callers above never see ``pygit2.GitError``.

Compare-and-swap protocol for a ref (what git itself does, plus a process lock):

1. take ``<repo>/memrepo-cas.lock`` (an fcntl lock the OS drops when its holder dies),
2. remove a ``<ref>.lock`` left behind by a dead memrepo writer (see below),
3. lock the ref through a libgit2 transaction (creates ``<ref>.lock`` with O_EXCL, the
   same lock plain ``git`` and ``git push`` take),
4. re-read the ref *after* locking and compare it with the tip the decision was made
   on; only if they match, set the new target.

libgit2's transaction does not compare the old value by itself; step 4 is what makes it
a CAS. A ``<ref>.lock`` found while we hold the process lock was either taken by a
plain git process a moment ago, or left by a memrepo writer that was killed between
steps 3 and 4; the second kind is older than :data:`STALE_LOCK_SECONDS` and is removed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import filelock
import pygit2

from .errors import StoreError

BLOB = pygit2.GIT_FILEMODE_BLOB
TREE = pygit2.GIT_FILEMODE_TREE

#: A ref lock older than this, found while no memrepo writer holds the CAS lock, is stale.
STALE_LOCK_SECONDS = float(os.environ.get("MEMREPO_STALE_LOCK_SECONDS", "2.0"))
#: How long a writer waits for the (microseconds-long) CAS critical section.
CAS_LOCK_TIMEOUT = 30.0
#: libgit2 leaves these behind when a writer dies mid-object-write.
TEMP_PREFIXES = ("tmp_object_git2_", "tmp_pack_", "pack_git2_")

Oid = pygit2.Oid


def set_durable(durable: bool) -> None:
    """fsync objects and refs (libgit2 does not by default). Process-wide in libgit2."""
    pygit2.settings.enable_fsync_gitdir(durable)


def init_bare(path: Path) -> pygit2.Repository:
    try:
        repo = pygit2.init_repository(str(path), bare=True, initial_head="main")
    except pygit2.GitError as exc:
        raise StoreError(f"cannot create repository at {path}: {exc}", code="init_failed") from exc
    return repo


def open_repo(path: Path) -> pygit2.Repository:
    try:
        return pygit2.Repository(str(path))
    except pygit2.GitError as exc:
        raise StoreError(f"not a git repository: {path}: {exc}", code="not_a_repository") from exc


def resolve(repo: pygit2.Repository, ref: str) -> Oid | None:
    try:
        reference = repo.references.get(ref)
    except pygit2.GitError as exc:
        raise StoreError(f"cannot read {ref}: {exc}", code="ref_unreadable") from exc
    if reference is None:
        return None
    return reference.resolve().target  # type: ignore[return-value]


def write_blob(repo: pygit2.Repository, data: bytes) -> Oid:
    try:
        return repo.create_blob(data)
    except pygit2.GitError as exc:
        raise StoreError(f"cannot write object: {exc}", code="object_write_failed") from exc


def read_blob(repo: pygit2.Repository, oid: Oid) -> bytes:
    obj = repo.get(oid)
    if obj is None or not isinstance(obj, pygit2.Blob):
        raise StoreError(f"object {oid} is missing or not a blob", code="object_missing")
    return obj.data


def tree_of(repo: pygit2.Repository, commit_id: Oid | None) -> pygit2.Tree | None:
    if commit_id is None:
        return None
    commit = repo.get(commit_id)
    if not isinstance(commit, pygit2.Commit):
        raise StoreError(f"{commit_id} is not a commit", code="object_missing")
    return commit.tree


def lookup(tree: pygit2.Tree | None, path: str) -> pygit2.Object | None:
    """The object at ``path`` in ``tree``, or None; never raises for a missing path."""
    if tree is None:
        return None
    try:
        return tree[path]
    except KeyError:
        return None


def lookup_blob(repo: pygit2.Repository, tree: pygit2.Tree | None, path: str) -> bytes | None:
    obj = lookup(tree, path)
    if obj is None or obj.type != pygit2.GIT_OBJECT_BLOB:
        return None
    return read_blob(repo, obj.id)


def walk_blobs(repo: pygit2.Repository, tree: pygit2.Tree, prefix: str = "") -> Iterator[
    tuple[str, Oid]
]:
    for entry in tree:
        path = f"{prefix}{entry.name}"
        if entry.type == pygit2.GIT_OBJECT_TREE:
            sub = repo.get(entry.id)
            assert isinstance(sub, pygit2.Tree)
            yield from walk_blobs(repo, sub, path + "/")
        elif entry.type == pygit2.GIT_OBJECT_BLOB:
            yield path, entry.id


def edit_tree(
    repo: pygit2.Repository, base: pygit2.Tree | None, changes: Mapping[str, Oid | None]
) -> Oid:
    """A new tree: ``base`` with each path set to a blob (or removed, for None).

    Only the trees on the changed paths are rewritten; everything else is shared with
    ``base``, which is what keeps a commit's cost independent of the store's size.
    """
    nested: dict[str, object] = {}
    for path, oid in changes.items():
        parts = path.split("/")
        node = nested
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise StoreError(f"path conflict at {path}", code="path_conflict")
            node = child
        node[parts[-1]] = oid
    return _apply(repo, base, nested)


def _apply(repo: pygit2.Repository, base: pygit2.Tree | None, node: Mapping[str, object]) -> Oid:
    builder = repo.TreeBuilder(base) if base is not None else repo.TreeBuilder()
    for name, change in node.items():
        if isinstance(change, dict):
            existing = lookup(base, name)
            sub = existing if isinstance(existing, pygit2.Tree) else None
            sub_id = _apply(repo, sub, change)
            if len(repo.get(sub_id)) == 0:  # type: ignore[arg-type]
                if builder.get(name) is not None:
                    builder.remove(name)
            else:
                builder.insert(name, sub_id, TREE)
        elif change is None:
            if builder.get(name) is not None:
                builder.remove(name)
        else:
            assert isinstance(change, Oid)
            builder.insert(name, change, BLOB)
    return builder.write()


@dataclass(frozen=True)
class Author:
    name: str
    email: str


def create_commit(
    repo: pygit2.Repository,
    *,
    tree: Oid,
    parents: list[Oid],
    message: str,
    author: Author,
    when: int | None = None,
) -> Oid:
    stamp = int(time.time()) if when is None else when
    sig = pygit2.Signature(author.name, author.email, stamp, 0)
    try:
        return repo.create_commit(None, sig, sig, message, tree, parents)
    except pygit2.GitError as exc:
        raise StoreError(f"cannot write commit: {exc}", code="object_write_failed") from exc


def _ref_lock_path(repo: pygit2.Repository, ref: str) -> Path:
    return Path(repo.path) / (ref + ".lock")


def recover_stale_ref_lock(repo: pygit2.Repository, ref: str, *, older_than: float | None = None
                           ) -> bool:
    """Remove ``<ref>.lock`` if no live memrepo writer can own it. Caller holds the CAS lock."""
    lock = _ref_lock_path(repo, ref)
    limit = STALE_LOCK_SECONDS if older_than is None else older_than
    try:
        age = time.time() - lock.stat().st_mtime
    except FileNotFoundError:
        return False
    if age < limit:
        return False
    try:
        lock.unlink()
    except FileNotFoundError:
        return False
    return True


def cas_lock(repo: pygit2.Repository) -> filelock.BaseFileLock:
    return filelock.FileLock(str(Path(repo.path) / "memrepo-cas.lock"), timeout=CAS_LOCK_TIMEOUT)


@contextmanager
def holding_cas_lock(repo: pygit2.Repository) -> Iterator[None]:
    try:
        with cas_lock(repo):
            yield
    except filelock.Timeout as exc:
        raise StoreError(
            f"another writer held {repo.path}memrepo-cas.lock for {CAS_LOCK_TIMEOUT}s",
            code="cas_lock_timeout",
        ) from exc


def compare_and_swap(
    repo: pygit2.Repository,
    updates: Mapping[str, tuple[Oid | None, Oid]],
    *,
    message: str,
) -> bool:
    """Move every ref in ``updates`` from its expected value to its new one, or none.

    Returns False (nothing changed) when any ref no longer points where the caller's
    decision saw it, or when a plain git process holds its lock right now.
    """
    with holding_cas_lock(repo):
        for ref in updates:
            recover_stale_ref_lock(repo, ref)
        try:
            with repo.transaction() as txn:
                for ref in sorted(updates):
                    txn.lock_ref(ref)
                for ref, (expected, _new) in updates.items():
                    if resolve(repo, ref) != expected:
                        raise _Moved(ref)
                for ref, (_expected, new) in updates.items():
                    txn.set_target(ref, new, message=message)
        except _Moved:
            return False
        except pygit2.GitError as exc:
            if "lock" in str(exc).lower():
                return False
            raise StoreError(f"cannot update refs: {exc}", code="ref_update_failed") from exc
    return True


class _Moved(Exception):
    pass


def clean_temp_files(repo: pygit2.Repository, *, older_than: float = 60.0) -> int:
    """Delete libgit2's leftover temporary object/pack files; returns how many."""
    objects = Path(repo.path) / "objects"
    removed = 0
    now = time.time()
    for directory in [objects, objects / "pack", *objects.glob("[0-9a-f][0-9a-f]")]:
        if not directory.is_dir():
            continue
        for entry in directory.iterdir():
            if not entry.name.startswith(TEMP_PREFIXES):
                continue
            try:
                if now - entry.stat().st_mtime >= older_than:
                    entry.unlink()
                    removed += 1
            except FileNotFoundError:
                continue
    return removed


def first_parent_chain(repo: pygit2.Repository, tip: Oid | None, stop: Oid | None = None
                       ) -> Iterator[pygit2.Commit]:
    """Commits from ``tip`` back along first parents, newest first, stopping before ``stop``."""
    current = tip
    while current is not None and current != stop:
        commit = repo.get(current)
        assert isinstance(commit, pygit2.Commit)
        yield commit
        current = commit.parent_ids[0] if commit.parent_ids else None


def parse_trailers(message: str) -> dict[str, str]:
    """Trailers of a commit message (the last paragraph of ``Key: value`` lines)."""
    paragraphs = message.rstrip("\n").split("\n\n")
    out: dict[str, str] = {}
    for line in paragraphs[-1].splitlines():
        key, sep, value = line.partition(": ")
        if sep and key and " " not in key:
            out[key] = value
    return out
