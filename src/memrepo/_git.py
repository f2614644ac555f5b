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
steps 3 and 4; the second kind is older than :func:`stale_lock_seconds` and is removed.

Refs passed as ``verify`` are locked and compared the same way but left as they are:
a decision read both ``main`` and the audit ref, so publishing it on one of them is
only safe while the other has not moved either (otherwise two writers can each miss
the other's write: a commit on ``main`` that never saw a competing proposal parked on
the audit ref a moment earlier, or one proposal both committed and parked).

Durability (issue 6): a staged batch (:func:`open_staging`) keeps its new objects in
memory and :func:`write_pack` writes them as one pack (pack, index, directory fsynced)
before :func:`compare_and_swap` moves the refs with libgit2's fsync switched on for the
update (lock file, reflog and their directories fsynced). Every write to disk passes
:func:`io_point`, where tests inject ENOSPC/EIO (:data:`FAULTS`).
"""

from __future__ import annotations

import errno
import hashlib
import itertools
import os
import re
import struct
import threading
import time
import uuid
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import filelock
import pygit2

from .errors import StoreError

BLOB = pygit2.GIT_FILEMODE_BLOB
TREE = pygit2.GIT_FILEMODE_TREE

#: A ref lock older than this, found while no memrepo writer holds the CAS lock, is stale.
#: ``MEMREPO_STALE_LOCK_SECONDS`` overrides it (read at each use, so tests can lower it).
STALE_LOCK_SECONDS = 2.0
#: How long a writer waits for the (microseconds-long) CAS critical section.
CAS_LOCK_TIMEOUT = 30.0
#: libgit2, git and :func:`write_pack` leave these behind when a writer dies mid-write.
TEMP_PREFIXES = ("tmp_object_git2_", "tmp_pack_", "tmp_idx_", "pack_git2_")

Oid = pygit2.Oid

_BLOB_TYPE = int(pygit2.GIT_OBJECT_BLOB)
_TREE_TYPE = int(pygit2.GIT_OBJECT_TREE)
_COMMIT_TYPE = int(pygit2.GIT_OBJECT_COMMIT)
_TYPE_NAMES = {_BLOB_TYPE: b"blob", _TREE_TYPE: b"tree", _COMMIT_TYPE: b"commit",
               int(pygit2.GIT_OBJECT_TAG): b"tag"}


#: libgit2's fsync switch (``enable_fsync_gitdir``) as last set through this module.
_LIBGIT2_FSYNC = [False]
#: Held while the switch is flipped for one ref update (see :func:`_libgit2_fsync`).
_FSYNC_LOCK = threading.RLock()


def set_durable(durable: bool) -> None:
    """fsync loose objects and refs (libgit2 does not by default). Process-wide in libgit2.

    Staged batches (:class:`Staging`) do not depend on it: their pack is fsynced here, and
    :func:`compare_and_swap` sets the switch for the duration of its ref update when told
    ``durable=``. It still governs loose objects written outside a batch.
    """
    with _FSYNC_LOCK:
        pygit2.settings.enable_fsync_gitdir(durable)
        _LIBGIT2_FSYNC[0] = durable


@contextmanager
def _libgit2_fsync(durable: bool | None) -> Iterator[None]:
    """libgit2's fsync switch set to ``durable`` for the block (None: as it is)."""
    if durable is None:
        yield
        return
    with _FSYNC_LOCK:  # set it even if it seems set: someone may have called pygit2 directly
        pygit2.settings.enable_fsync_gitdir(durable)
        try:
            yield
        finally:
            pygit2.settings.enable_fsync_gitdir(_LIBGIT2_FSYNC[0])


# -- fault injection at the storage boundary ---------------------------------------------


class FaultPlan:
    """Make the Nth write at the storage boundary fail, as a full disk or a bad device would.

    Every place below that writes to disk (a loose object, a pack or its index, an fsync,
    a rename, a ref update) calls :func:`io_point` first. Unarmed, that only counts; armed
    with ``fail_at=N`` the Nth call raises ``OSError(errno)`` instead of writing, and with
    ``sticky`` every later call too (a full disk stays full). Tests run a burst once to
    count its writes, then again for every N (SQLite's approach). Objects written into a
    staged batch's memory are not storage writes and are not counted.
    """

    def __init__(self) -> None:
        self.calls = 0
        self.fail_at: int | None = None
        self.errno = errno.ENOSPC
        self.sticky = False
        self.failed: list[str] = []

    def arm(self, fail_at: int, err: int = errno.ENOSPC, *, sticky: bool = False) -> None:
        self.calls, self.fail_at, self.errno, self.sticky = 0, fail_at, err, sticky
        self.failed = []

    def disarm(self) -> None:
        self.calls, self.fail_at, self.sticky = 0, None, False

    def hit(self, where: str) -> None:
        self.calls += 1
        at = self.fail_at
        if at is not None and (self.calls == at or (self.sticky and self.calls > at)):
            self.failed.append(where)
            raise OSError(self.errno, f"{os.strerror(self.errno)} (injected at write "
                                      f"{self.calls}: {where})")


FAULTS = FaultPlan()


def io_point(where: str) -> None:
    """Mark a write to disk (see :class:`FaultPlan`)."""
    FAULTS.hit(where)


#: How libgit2 words a full disk in the errors it raises (it keeps no errno).
_DISK_FULL_WORDS = (os.strerror(errno.ENOSPC), os.strerror(errno.EDQUOT))


def _disk_full(exc: Exception) -> bool:
    """Whether a failed write failed for want of space: by errno where there is one;
    libgit2's errors (GitError, or OSError without errno from pygit2) only say it in words."""
    err = getattr(exc, "errno", None)
    if err is not None:
        return err in (errno.ENOSPC, errno.EDQUOT)
    return any(words in str(exc) for words in _DISK_FULL_WORDS)


def io_error(exc: OSError, what: str) -> StoreError:
    """An OSError from a write, as the StoreError callers see (``disk_full`` or ``io_error``)."""
    return StoreError(f"{what}: {exc.strerror or exc}",
                      code="disk_full" if _disk_full(exc) else "io_error")


def write_error(exc: pygit2.GitError, what: str, code: str) -> StoreError:
    """A libgit2 write error as callers see it: ``disk_full`` when the disk is, else
    ``code`` (a caller's retry policy differs: a full disk needs an operator)."""
    return StoreError(f"{what}: {exc}", code="disk_full" if _disk_full(exc) else code)


def _staging_of(repo: pygit2.Repository) -> _MemoryObjects | None:
    """The memory a staged batch writes ``repo``'s objects into; None: they go to disk."""
    return getattr(repo, "_memrepo_staging", None)


def init_bare(path: Path) -> pygit2.Repository:
    try:
        repo = pygit2.init_repository(str(path), bare=True, initial_head="main")
    except pygit2.GitError as exc:
        raise write_error(exc, f"cannot create repository at {path}", "init_failed") from exc
    return repo


#: libgit2 caches trees only up to 4 KiB by default, and a full 256-entry fan-out tree is
#: ~7.5 KiB, so every path lookup read and inflated those again (bench/results.md).
TREE_CACHE_LIMIT = 1 << 20


def open_repo(path: Path) -> pygit2.Repository:
    # Process-wide like set_durable(); bounded by libgit2's total cache size (256 MiB).
    pygit2.settings.cache_object_limit(pygit2.GIT_OBJECT_TREE, TREE_CACHE_LIMIT)
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


def _retry_vanished(action: Callable[[], Oid]) -> Oid:
    """Run a loose-object write again if its fan-out folder vanished under it.

    ``git repack -d`` (maintenance) runs ``prune-packed``, which removes emptied
    ``objects/xx/`` folders; a libgit2 write that created its temp file just before can
    then fail to rename it into place. The object is content-addressed, so trying again
    is always safe.
    """
    for attempt in range(3):
        try:
            return action()
        except pygit2.GitError as exc:
            if attempt == 2 or "No such file or directory" not in str(exc):
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def write_blob(repo: pygit2.Repository, data: bytes) -> Oid:
    memory = _staging_of(repo)
    if memory is not None:
        return memory.put(_BLOB_TYPE, data)
    try:
        io_point("loose blob")
        return _retry_vanished(lambda: repo.create_blob(data))
    except pygit2.GitError as exc:
        raise write_error(exc, "cannot write object", "object_write_failed") from exc
    except OSError as exc:
        raise io_error(exc, "cannot write object") from exc


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
    memory = _staging_of(repo)
    for path, oid in changes.items():
        parts = path.split("/")
        node = nested
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                raise StoreError(f"path conflict at {path}", code="path_conflict")
            node = child
        node[parts[-1]] = oid
    if memory is not None:
        staged = memory.edit_tree(repo, base.id if base is not None else None, nested,
                                  root=True)
        assert staged is not None
        return staged
    tree = _apply(repo, base, nested, root=True)
    assert tree is not None
    return tree


def _apply(repo: pygit2.Repository, base: pygit2.Tree | None, node: Mapping[str, object], *,
           root: bool = False) -> Oid | None:
    """The edited tree's id; None for a subtree left empty (it is then not written)."""
    builder = repo.TreeBuilder(base) if base is not None else repo.TreeBuilder()
    for name, change in node.items():
        if isinstance(change, dict):
            existing = lookup(base, name)
            sub = existing if isinstance(existing, pygit2.Tree) else None
            sub_id = _apply(repo, sub, change)
            if sub_id is None:
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
    if not root and len(builder) == 0:
        return None
    try:
        io_point("loose tree")
        return _retry_vanished(builder.write)
    except pygit2.GitError as exc:
        raise write_error(exc, "cannot write tree", "object_write_failed") from exc
    except OSError as exc:
        raise io_error(exc, "cannot write tree") from exc


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
    try:
        sig = pygit2.Signature(author.name, author.email, stamp, 0)
    except (ValueError, pygit2.GitError) as exc:
        raise StoreError(f"cannot sign a commit as {author.name!r} <{author.email}>: {exc}",
                         code="bad_signature") from exc
    data = commit_bytes(tree, parents, message, sig)
    memory = _staging_of(repo)
    if memory is not None:
        return memory.put(_COMMIT_TYPE, data)
    # Not repo.create_commit: libgit2 (1.9) returns success with the new id when writing
    # the commit object fails (git_commit__create_internal drops git_odb_write's error),
    # so on a full disk a ref would be moved to a commit that was never written. Its
    # check that the tree and parents exist is kept.
    missing = [str(oid) for oid in (tree, *parents) if oid not in repo.odb]
    if missing:
        raise StoreError(f"cannot write a commit on missing objects {', '.join(missing)}",
                         code="object_missing")
    try:
        io_point("loose commit")
        return _retry_vanished(lambda: repo.odb.write(_COMMIT_TYPE, data))
    except pygit2.GitError as exc:
        raise write_error(exc, "cannot write commit", "object_write_failed") from exc
    except OSError as exc:
        raise io_error(exc, "cannot write commit") from exc


def commit_bytes(tree: Oid, parents: list[Oid], message: str, sig: pygit2.Signature) -> bytes:
    """A commit object's bytes as libgit2 writes them (author = committer = ``sig``)."""
    name, email = sig.name, sig.email
    if "\n" in name or "\n" in email:
        raise StoreError(f"a signature cannot contain a line break: {name!r}",
                         code="bad_signature")
    offset = sig.offset
    zone = f"{'-' if offset < 0 else '+'}{abs(offset) // 60:02d}{abs(offset) % 60:02d}"
    who = f"{name} <{email}> {sig.time} {zone}\n"
    head = f"tree {tree}\n" + "".join(f"parent {p}\n" for p in parents)
    return f"{head}author {who}committer {who}\n{message}".encode()


def stale_lock_seconds() -> float:
    """The stale-lock age limit: ``$MEMREPO_STALE_LOCK_SECONDS`` or the default."""
    raw = os.environ.get("MEMREPO_STALE_LOCK_SECONDS")
    try:
        return float(raw) if raw else STALE_LOCK_SECONDS
    except ValueError:
        return STALE_LOCK_SECONDS


def _ref_lock_path(repo: pygit2.Repository, ref: str) -> Path:
    return Path(repo.path) / (ref + ".lock")


def recover_stale_ref_lock(repo: pygit2.Repository, ref: str, *, older_than: float | None = None
                           ) -> bool:
    """Remove ``<ref>.lock`` if no live memrepo writer can own it. Caller holds the CAS lock."""
    lock = _ref_lock_path(repo, ref)
    limit = stale_lock_seconds() if older_than is None else older_than
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
    verify: Mapping[str, Oid | None] | None = None,
    durable: bool | None = None,
) -> bool:
    """Move every ref in ``updates`` from its expected value to its new one, or none.

    Refs in ``verify`` must still be at the given value too but are not changed.
    Returns False (nothing changed) when any ref no longer points where the caller's
    decision saw it, or when a plain git process holds its lock right now.

    Every ref is locked and compared before any is written; then they are written in
    the order of ``updates``, so a caller that must not leave one ref ahead of another
    after a failed write puts the one that matters most last (the store puts ``main``
    last: if writing it fails, nothing the caller was not told about is on ``main``).
    ``durable`` (when not None) sets libgit2's fsync switch for the ref writes: the lock
    file, the reflog and their directories are fsynced before this returns True.
    Objects still held by a staged batch on ``repo`` are written out first.
    """
    expected_at = {ref: expected for ref, (expected, _new) in updates.items()}
    for ref, expected in (verify or {}).items():
        expected_at.setdefault(ref, expected)
    staging = _staging_of(repo)
    if staging is not None and staging.objects:
        write_pack(Path(repo.path) / "objects" / "pack", staging.objects,
                   durable=_LIBGIT2_FSYNC[0] if durable is None else durable)
        staging.objects.clear()
    with holding_cas_lock(repo):
        for ref in expected_at:
            recover_stale_ref_lock(repo, ref)
        held: dict[str, Any] = {}
        try:
            try:
                for ref in sorted(expected_at):
                    held[ref] = repo.transaction()
                    held[ref].lock_ref(ref)
            except pygit2.GitError as exc:
                if "lock" in str(exc).lower():
                    return False
                raise write_error(exc, "cannot lock refs", "ref_update_failed") from exc
            for ref, expected in expected_at.items():
                if resolve(repo, ref) != expected:
                    return False
            for ref, (_expected, new) in updates.items():
                try:
                    io_point(f"ref {ref}")
                    held[ref].set_target(ref, new, message=message)
                    with _libgit2_fsync(durable):
                        held[ref].commit()
                except pygit2.GitError as exc:
                    raise write_error(exc, f"cannot update {ref}", "ref_update_failed") from exc
                except OSError as exc:
                    raise io_error(exc, f"cannot update {ref}") from exc
        finally:
            for txn in held.values():  # frees it; a ref locked but not written is unlocked
                txn.__exit__(_Moved, None, None)
    return True


class _Moved(Exception):
    pass


def clean_temp_files(repo: pygit2.Repository, *, older_than: float = 60.0) -> int:
    """Delete libgit2's leftover temporary object/pack files; returns how many.

    libgit2 writes a loose object to ``objects/tmp_object_git2_*`` and links it into
    place, and packs to ``objects/pack/``; a writer killed in between leaves the temp
    file. Only those two directories are scanned (never the 256 fan-out directories),
    so this is cheap enough to run whenever a repository is opened. ``older_than``
    spares files a live writer may still be writing.
    """
    objects = Path(repo.path) / "objects"
    removed = 0
    now = time.time()
    for directory in (objects, objects / "pack"):
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


# -- additions for hooks and reviews (issue 5) ------------------------------------------


def add_object_dir(repo: pygit2.Repository, path: str | os.PathLike[str]) -> None:
    """Let ``repo`` read objects from another object directory too.

    A pre-receive hook runs while the pushed objects sit in git's quarantine directory
    (``GIT_QUARANTINE_PATH``); libgit2 does not read git's environment, so the hook
    adds that directory as an alternate to see the commits it must judge.
    """
    try:
        repo.odb.add_disk_alternate(str(path))
    except pygit2.GitError as exc:
        raise StoreError(f"cannot read objects in {path}: {exc}", code="object_dir") from exc


@dataclass(frozen=True)
class Change:
    """One path that differs between two trees (None: absent on that side)."""

    path: str
    old: Oid | None
    new: Oid | None
    new_mode: int | None


def changed_entries(repo: pygit2.Repository, old: pygit2.Tree | None,
                    new: pygit2.Tree | None) -> list[Change]:
    """Every non-tree path whose object or mode differs between two trees, by path.

    Reads the raw tree objects and descends only into subtrees whose ids differ, so the
    cost follows the size of the change: a fan-out folder of a few hundred entries is
    one set difference in C, where libgit2's tree diff (and iterating pygit2's tree
    entries) took some 6.5 ms per commit at a thousand facts. A path that is a tree on
    one side and a file on the other comes as a deletion and an addition, as in
    ``git diff-tree -r``. ``new_mode`` is reported so a caller can refuse symlinks and
    submodules.
    """
    out: list[Change] = []
    try:
        _diff_trees(repo, None if old is None else old.id, None if new is None else new.id,
                    "", out)
    except (pygit2.GitError, KeyError, ValueError) as exc:
        raise StoreError(f"cannot diff trees: {exc}", code="diff_failed") from exc
    out.sort(key=lambda c: (c.path, c.old is None))
    return out


_TREE_ENTRY = re.compile(rb"([0-7]+) ([^\0]+)\0(.{20})", re.S)
_TREE_MODE = 0o40000


def _raw_entries(repo: pygit2.Repository, oid: Oid | None) -> set[tuple[bytes, bytes, bytes]]:
    if oid is None:
        return set()
    kind, data = repo.odb.read(oid)
    if kind != pygit2.GIT_OBJECT_TREE:
        raise ValueError(f"{oid} is not a tree")
    return set(_TREE_ENTRY.findall(data))


def _diff_trees(repo: pygit2.Repository, old: Oid | None, new: Oid | None, prefix: str,
                out: list[Change]) -> None:
    before, after = _raw_entries(repo, old), _raw_entries(repo, new)
    sides: dict[bytes, list[tuple[int, Oid] | None]] = {}
    for side, entries in ((0, before - after), (1, after - before)):
        for mode, name, raw in entries:
            sides.setdefault(name, [None, None])[side] = (int(mode, 8), Oid(raw=raw))
    for name, (a, b) in sides.items():
        path = prefix + name.decode("utf-8", "surrogateescape")
        a_tree = a is not None and a[0] == _TREE_MODE
        b_tree = b is not None and b[0] == _TREE_MODE
        if a_tree or b_tree:
            _diff_trees(repo, a[1] if a_tree else None,  # type: ignore[index]
                        b[1] if b_tree else None, path + "/", out)  # type: ignore[index]
        a_file = None if a is None or a_tree else a
        b_file = None if b is None or b_tree else b
        if a_file is not None or b_file is not None:
            out.append(Change(path, None if a_file is None else a_file[1],
                              None if b_file is None else b_file[1],
                              None if b_file is None else b_file[0]))


# -- tags, revisions and tree diffs (snapshots, rollback, audit) -------------------

TAGS_PREFIX = "refs/tags/"


@dataclass(frozen=True)
class TagInfo:
    """One tag: its short name, the commit it names, and its message (annotated tags)."""

    name: str
    target: Oid
    tag: Oid | None
    message: str


def _tag_info(repo: pygit2.Repository, ref: pygit2.Reference) -> TagInfo | None:
    obj = repo.get(ref.target)  # type: ignore[arg-type]
    name = ref.name[len(TAGS_PREFIX):]
    if isinstance(obj, pygit2.Tag):
        try:
            commit = obj.peel(pygit2.Commit)
        except (pygit2.GitError, ValueError, KeyError):
            return None
        return TagInfo(name, commit.id, obj.id, obj.message)
    if isinstance(obj, pygit2.Commit):
        return TagInfo(name, obj.id, None, "")
    return None


def create_annotated_tag(repo: pygit2.Repository, name: str, target: Oid, *, message: str,
                         tagger: Author, when: int | None = None) -> tuple[TagInfo, bool]:
    """Create ``refs/tags/<name>`` (annotated) on ``target`` unless it exists already.

    Returns the tag and whether this call created it. A tag that exists is left as it
    is (tags are never moved), which makes repeated calls idempotent; the check and
    the creation happen under the CAS lock so two memrepo processes cannot race.
    """
    ref_name = TAGS_PREFIX + name
    stamp = int(time.time()) if when is None else when
    sig = pygit2.Signature(tagger.name, tagger.email, stamp, 0)
    with holding_cas_lock(repo):
        existing = repo.references.get(ref_name)
        if existing is None:
            try:
                repo.create_tag(name, target, pygit2.GIT_OBJECT_COMMIT, sig, message)
            except (pygit2.GitError, ValueError) as exc:
                raise StoreError(f"cannot create tag {name}: {exc}", code="tag_failed") from exc
            created = True
        else:
            created = False
        reference = repo.references.get(ref_name)
    info = _tag_info(repo, reference) if reference is not None else None
    if info is None:
        raise StoreError(f"tag {name} does not name a commit", code="tag_failed")
    return info, created


def list_tags(repo: pygit2.Repository, prefix: str = "") -> list[TagInfo]:
    """Tags whose name starts with ``prefix``, sorted by name."""
    out = []
    for ref in repo.references.iterator():
        if not ref.name.startswith(TAGS_PREFIX + prefix):
            continue
        info = _tag_info(repo, ref)
        if info is not None:
            out.append(info)
    return sorted(out, key=lambda t: t.name)


def delete_tag(repo: pygit2.Repository, name: str) -> bool:
    """Delete the ref ``refs/tags/<name>`` (never any commit); False if it was not there."""
    ref_name = TAGS_PREFIX + name
    with holding_cas_lock(repo):
        if repo.references.get(ref_name) is None:
            return False
        try:
            repo.references.delete(ref_name)
        except (pygit2.GitError, KeyError) as exc:
            raise StoreError(f"cannot delete tag {name}: {exc}", code="tag_failed") from exc
    return True


def resolve_commit(repo: pygit2.Repository, spec: str) -> Oid | None:
    """The commit a revision names (tag, full or abbreviated id, ``X^``), or None."""
    try:
        obj = repo.revparse_single(spec)
        commit = obj.peel(pygit2.Commit)
    except (pygit2.GitError, KeyError, ValueError, TypeError):
        return None
    return commit.id


def get_commit(repo: pygit2.Repository, oid: Oid) -> pygit2.Commit:
    commit = repo.get(oid)
    if not isinstance(commit, pygit2.Commit):
        raise StoreError(f"{oid} is not a commit", code="object_missing")
    return commit


def is_ancestor(repo: pygit2.Repository, ancestor: Oid, descendant: Oid) -> bool:
    """True when ``ancestor`` is ``descendant`` or reachable from it."""
    return ancestor == descendant or bool(repo.descendant_of(descendant, ancestor))


def diff_blobs(repo: pygit2.Repository, old: pygit2.Tree | None, new: pygit2.Tree | None,
               prefix: str = "") -> Iterator[tuple[str, Oid | None, Oid | None]]:
    """Blob paths that differ between two trees: (path, old blob or None, new blob or None).

    Equal subtrees are skipped by id, so the cost follows the size of the change.
    """
    old_entries = {e.name: e for e in old} if old is not None else {}
    new_entries = {e.name: e for e in new} if new is not None else {}
    for name in sorted(old_entries.keys() | new_entries.keys()):
        a, b = old_entries.get(name), new_entries.get(name)
        if a is not None and b is not None and a.id == b.id:
            continue
        path = f"{prefix}{name}"
        a_tree = a is not None and a.type == pygit2.GIT_OBJECT_TREE
        b_tree = b is not None and b.type == pygit2.GIT_OBJECT_TREE
        if a_tree or b_tree:
            sub_a = repo.get(a.id) if a_tree and a is not None else None
            sub_b = repo.get(b.id) if b_tree and b is not None else None
            yield from diff_blobs(repo, sub_a, sub_b, path + "/")  # type: ignore[arg-type]
        a_blob = a.id if a is not None and a.type == pygit2.GIT_OBJECT_BLOB else None
        b_blob = b.id if b is not None and b.type == pygit2.GIT_OBJECT_BLOB else None
        if a_blob is not None or b_blob is not None:
            yield path, a_blob, b_blob


def trailer_lines(message: str) -> list[tuple[str, str]]:
    """Every trailer of a commit message in order, repeated keys kept (``Memory-Id``)."""
    paragraphs = message.rstrip("\n").split("\n\n")
    out = []
    for line in paragraphs[-1].splitlines():
        key, sep, value = line.partition(": ")
        if sep and key and " " not in key:
            out.append((key, value))
    return out


Tree = pygit2.Tree
Commit = pygit2.Commit
Repository = pygit2.Repository


def subtree(tree: pygit2.Tree | None, path: str) -> pygit2.Tree | None:
    """The tree at ``path`` in ``tree``, or None when it is absent or not a tree."""
    obj = lookup(tree, path)
    return obj if isinstance(obj, pygit2.Tree) else None


def to_oid(text: str) -> Oid | None:
    """A full hex object id, or None when ``text`` is not one."""
    try:
        return pygit2.Oid(hex=text)
    except (ValueError, TypeError):
        return None


def commit_of(repo: pygit2.Repository, spec: str | Oid) -> pygit2.Commit | None:
    """The commit a revision names (id, prefix, ref), peeling tags; None if there is none."""
    try:
        obj = repo.get(spec) if isinstance(spec, Oid) else repo.revparse_single(spec)
        if isinstance(obj, pygit2.Tag):
            obj = obj.peel(pygit2.Commit)
    except (KeyError, ValueError, pygit2.GitError):
        return None
    return obj if isinstance(obj, pygit2.Commit) else None


def is_descendant(repo: pygit2.Repository, commit: Oid, ancestor: Oid) -> bool:
    """True when ``ancestor`` is in the history of ``commit``; False also when either
    object is missing (a consumer position from another repository)."""
    try:
        return bool(repo.descendant_of(commit, ancestor))
    except pygit2.GitError:
        return False


# -- staged batches: objects in memory, published as one pack (issue 6) -------------------


class _MemoryObjects(pygit2.OdbBackend):
    """An object database backend holding a batch's new objects in memory.

    It is the only writable backend of a staging repository (the repository's own object
    directory is attached as an alternate, which libgit2 never writes to), so every
    blob, tree and commit of a batch lands here, readable at once by the decisions that
    follow, and nothing reaches the disk until :func:`write_pack` writes them all as one
    pack. An object the disk has already (an unchanged tree, a blob written before) may
    be written again in that pack: harmless, since ids are content, and maintenance keeps
    one copy.
    """

    def __init__(self) -> None:
        super().__init__()
        self.objects: dict[Oid, tuple[int, bytes]] = {}
        #: Trees by id (see :meth:`edit_tree`); content-addressed, so entries stay valid
        #: across batches, published or not. The older half goes past PARSED_TREES.
        self.trees: dict[Oid, _Tree] = {}

    def exists_cb(self, oid: Oid) -> bool:
        return oid in self.objects

    def _full(self, prefix: str) -> Oid:
        """The one object whose hex id starts with ``prefix`` (pygit2 looks objects up by
        prefix, usually a full 40-digit one, when it loads their content)."""
        if len(prefix) == 40:
            oid = Oid(hex=prefix)
            if oid in self.objects:
                return oid
            raise KeyError(prefix)
        found = [oid for oid in self.objects if str(oid).startswith(prefix)]
        if len(found) != 1:
            raise KeyError(prefix) if not found else ValueError(f"ambiguous {prefix}")
        return found[0]

    def exists_prefix_cb(self, prefix: str) -> Oid:
        return self._full(prefix)

    def read_cb(self, oid: Oid) -> tuple[int, bytes]:
        return self.objects[oid]

    def read_prefix_cb(self, prefix: str) -> tuple[int, bytes, Oid]:
        oid = self._full(prefix)
        kind, data = self.objects[oid]
        return kind, data, oid

    def read_header_cb(self, oid: Oid) -> tuple[int, int]:
        kind, data = self.objects[oid]
        return kind, len(data)

    def write_cb(self, oid: Oid, data: bytes, kind: int) -> None:
        self.objects[oid] = (kind, bytes(data))

    def refresh_cb(self) -> None:
        pass

    # Writes of a batch bypass libgit2: there, every new object is first looked up in
    # every backend, and the miss makes libgit2 re-read the pack directory (a readdir
    # per object; ~24 objects per commit). Git's object format is simple enough to
    # write here, hashed with hashlib's SHA-1 (which pygit2.hash agrees with, see tests).

    def put(self, kind: int, data: bytes) -> Oid:
        """Store an object of ``kind`` (``GIT_OBJECT_*``) and return its id."""
        digest = hashlib.sha1(b"%s %d\0" % (_TYPE_NAMES[kind], len(data)))
        digest.update(data)
        oid = Oid(raw=digest.digest())
        self.objects[oid] = (kind, data)
        return oid

    def _tree(self, repo: pygit2.Repository, oid: Oid) -> tuple[dict[str, _Entry], bytes]:
        tree = self.trees.get(oid)
        if tree is None or tree[0] is None:
            if tree is not None:
                data = tree[1]
            else:
                found = self.objects.get(oid)
                try:
                    data = found[1] if found is not None else repo.odb.read(oid)[1]
                except (KeyError, pygit2.GitError) as exc:
                    raise StoreError(f"tree {oid} is missing: {exc}",
                                     code="object_missing") from exc
            tree = (_parse_tree(data), data)
            self._remember(oid, tree)
        return tree  # type: ignore[return-value]

    def _remember(self, oid: Oid, tree: _Tree) -> None:
        self.trees[oid] = tree
        if len(self.trees) > PARSED_TREES:  # the older half goes (insertion order)
            for old in list(itertools.islice(self.trees, len(self.trees) // 2)):
                del self.trees[old]

    def edit_tree(self, repo: pygit2.Repository, base: Oid | None,
                  node: Mapping[str, object], *, root: bool = False) -> Oid | None:
        """:func:`edit_tree` for a batch: ``base`` with the nested changes in ``node``,
        every rewritten tree stored here; None for a subtree left empty (not written).

        Most rewrites only change the id of an entry (``facts/ab`` gets a new subtree):
        those patch the 20 bytes in a copy of the base tree's bytes. Adding or removing
        an entry writes the tree out again in git's order.
        """
        base_entries, data = self._tree(repo, base) if base is not None else ({}, b"")
        entries = dict(base_entries)
        patches: list[tuple[int, bytes]] = []
        reordered = base is None
        for name, change in node.items():
            raw_name = _entry_name(name)
            existing = entries.get(name)
            if isinstance(change, dict):
                sub_base = Oid(raw=existing[2]) if existing is not None and existing[1] \
                    else None
                sub = self.edit_tree(repo, sub_base, change)
                new = None if sub is None else (raw_name + b"/", True, sub.raw,
                                                b"40000 " + raw_name + b"\0" + sub.raw, -1)
            elif change is None:
                new = None
            else:
                assert isinstance(change, Oid)
                new = (raw_name, False, change.raw,
                       b"100644 " + raw_name + b"\0" + change.raw, -1)
            if new is None:
                if entries.pop(name, None) is not None:
                    reordered = True
            elif existing is not None and existing[0] == new[0] and \
                    len(existing[3]) == len(new[3]) and not reordered:
                entries[name] = (*new[:4], existing[4])
                patches.append((existing[4], new[3]))
            else:
                entries[name] = new
                reordered = True
        if not root and not entries:
            return None
        if reordered:
            # Git orders entries by name, a tree's name taken with a trailing slash. The
            # offsets are found again by parsing, if this tree is ever edited in turn.
            data = b"".join([entry[3] for entry in sorted(entries.values())])
            oid = self.put(_TREE_TYPE, data)
            self._remember(oid, (None, data))
            return oid
        if patches:
            edited = bytearray(data)
            for offset, entry_bytes in patches:
                edited[offset : offset + len(entry_bytes)] = entry_bytes
            data = bytes(edited)
        oid = self.put(_TREE_TYPE, data)
        self._remember(oid, (entries, data))
        return oid


#: A parsed tree entry: (sort key, is a tree, raw id, the entry's bytes in the tree,
#: their offset in the tree's bytes).
_Entry = tuple[bytes, bool, bytes, bytes, int]
#: A tree: its entries by name (None until parsed) and its bytes.
_Tree = tuple[dict[str, _Entry] | None, bytes]
#: Parsed trees a staging handle keeps (most are fan-out trees of at most 256 entries).
PARSED_TREES = 4096


def _parse_tree(data: bytes) -> dict[str, _Entry]:
    """A git tree object's entries by name (``<mode> <name>\\0<20-byte id>`` each)."""
    out: dict[str, _Entry] = {}
    pos, end = 0, len(data)
    find = data.find
    while pos < end:
        nul = find(b"\0", pos)
        space = find(b" ", pos, nul)
        if nul < 0 or space < 0 or nul + 21 > end:
            raise StoreError("a tree object is malformed", code="object_corrupt")
        name = data[space + 1 : nul]
        is_tree = data[pos:space] == b"40000"
        stop = nul + 21
        out[name.decode("utf-8", "surrogateescape")] = (
            name + b"/" if is_tree else name, is_tree, data[nul + 1 : stop], data[pos:stop],
            pos)
        pos = stop
    return out


def _entry_name(name: str) -> bytes:
    """A path component as a tree entry name; refuses what libgit2's tree builder refuses
    (the layout never produces these; this is the last line against a path escaping)."""
    if not name or "/" in name or "\0" in name or name in (".", "..") \
            or name.lower() == ".git":
        raise StoreError(f"invalid tree entry name {name!r}", code="bad_path")
    return name.encode("utf-8", "surrogateescape")


@dataclass
class Staging:
    """A second handle on a repository whose object writes stay in memory (see above)."""

    repo: pygit2.Repository
    memory: _MemoryObjects

    @property
    def objects(self) -> dict[Oid, tuple[int, bytes]]:
        return self.memory.objects


def open_staging(path: str | os.PathLike[str]) -> Staging:
    """A staging handle on the repository at ``path``: reads see disk and memory, writes
    go to memory. Refs are the repository's own (read them; publish with the disk handle)."""
    try:
        repo = pygit2.Repository(str(path))
        odb = pygit2.Odb()
        odb.add_disk_alternate(os.path.join(repo.path, "objects"))
        memory = _MemoryObjects()
        odb.add_backend(memory, 0)
        repo.set_odb(odb)
    except pygit2.GitError as exc:
        raise StoreError(f"cannot open {path} for staging: {exc}", code="not_a_repository"
                         ) from exc
    repo._memrepo_staging = memory  # type: ignore[attr-defined]  # see _staging_of()
    return Staging(repo, memory)


_PACK_SIGNATURE = b"PACK"
_IDX_SIGNATURE = b"\377tOc"


def _pack_entry(kind: int, data: bytes) -> bytes:
    size = len(data)
    byte = (kind << 4) | (size & 0x0F)
    size >>= 4
    header = bytearray()
    while size:
        header.append(byte | 0x80)
        byte = size & 0x7F
        size >>= 7
    header.append(byte)
    if kind == _TREE_TYPE:
        return bytes(header) + _zlib_stored(data)
    # Most objects are a few hundred bytes, and a default zlib stream sets up ~256 KB of
    # state, 3x the work of compressing them: a small memLevel suits them (level 1 is
    # as small as 6 on these JSON documents, and the full maintenance pass recompresses).
    stream = zlib.compressobj(1, zlib.DEFLATED, 15, 2)
    return bytes(header) + stream.compress(data) + stream.flush()


def _zlib_stored(data: bytes) -> bytes:
    """``data`` as a zlib stream of stored (uncompressed) deflate blocks.

    For trees: mostly 20-byte hashes, which deflate shrinks by ~20% at ~5 µs per 100
    bytes, while a commit rewrites ~20 of them (a 256-entry fan-out tree costs 115 µs
    at level 1). The full maintenance pass (``git repack -F``) deltifies and compresses
    them.
    """
    out = bytearray(b"\x78\x01")
    view = memoryview(data)
    while True:
        chunk, view = view[:0xFFFF], view[0xFFFF:]
        size = len(chunk)
        out += struct.pack("<BHH", 0 if view else 1, size, size ^ 0xFFFF)
        out += chunk
        if not view:
            break
    out += struct.pack(">I", zlib.adler32(data))
    return bytes(out)


def write_pack(pack_dir: str | os.PathLike[str], objects: Mapping[Oid, tuple[int, bytes]], *,
               durable: bool) -> str | None:
    """Write ``objects`` as one pack with its index (format v2, no deltas); returns its name.

    The sequence is git's: the pack and then its index are written under temporary
    names, fsynced (when ``durable``), renamed into place (the index last: it is what
    makes a pack visible), and the directory is fsynced. A crash at any point leaves
    either no new objects or all of them, plus at most a temporary file that
    :func:`clean_temp_files` removes. That is 3 fsyncs for a whole batch, where loose
    objects cost one per object and one per new fan-out directory.
    """
    if not objects:
        return None
    directory = Path(pack_dir)
    items = sorted(objects.items(), key=lambda item: item[0].raw)
    body = bytearray(_PACK_SIGNATURE + struct.pack(">II", 2, len(items)))
    entries: list[tuple[bytes, int, int]] = []
    for oid, (kind, data) in items:
        entry = _pack_entry(kind, data)
        entries.append((oid.raw, zlib.crc32(entry), len(body)))
        body += entry
    if len(body) >= 2**31:
        raise StoreError("a staged batch is too large for one pack", code="batch_too_large")
    checksum = hashlib.sha1(body).digest()
    body += checksum
    index = bytearray(_IDX_SIGNATURE + struct.pack(">I", 2))
    fanout = [0] * 256
    for raw, _crc, _offset in entries:
        fanout[raw[0]] += 1
    total = 0
    for count in fanout:
        total += count
        index += struct.pack(">I", total)
    index += b"".join(raw for raw, _, _ in entries)
    index += b"".join(struct.pack(">I", crc) for _, crc, _ in entries)
    index += b"".join(struct.pack(">I", offset) for _, _, offset in entries)
    index += checksum
    index += hashlib.sha1(index).digest()
    name = "pack-" + checksum.hex()
    # Removed on failure: temporary files, and the .pack if its .idx never appeared (no
    # one can have seen it). A pack whose index is in place stays: another writer may
    # already have found objects in it and skipped writing its own copies.
    undo: list[Path] = []
    try:
        for suffix, data in ((".pack", body), (".idx", index)):
            # No .pack/.idx suffix while incomplete: git takes any *.idx for a pack.
            kind = "pack" if suffix == ".pack" else "idx"
            tmp = directory / f"tmp_{kind}_memrepo_{uuid.uuid4().hex[:12]}"
            undo.append(tmp)
            io_point(f"pack {suffix} write")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o444)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                if durable:
                    io_point(f"pack {suffix} fsync")
                    os.fsync(fd)
            finally:
                os.close(fd)
            final = directory / (name + suffix)
            existed = final.exists()
            io_point(f"pack {suffix} rename")
            os.rename(tmp, final)
            if suffix == ".pack" and not existed:
                undo.append(final)
        undo = []
        if durable:
            io_point("pack dir fsync")
            fsync_dir(directory)
    except OSError as exc:
        for path in undo:
            try:
                path.unlink()
            except OSError:
                pass
        raise io_error(exc, f"cannot write pack in {directory}") from exc
    return name


def fsync_dir(path: str | os.PathLike[str]) -> None:
    """fsync a directory, so the names created or renamed in it survive a power loss."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def pack_dir(repo: pygit2.Repository) -> Path:
    return Path(repo.path) / "objects" / "pack"
