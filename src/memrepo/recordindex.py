"""A side index of proposal records: proposalId -> record blob on ``main`` and the audit ref.

Records live at ``proposals/<ab>/<cd>/<proposalId>.json``. Reading one through the trees
costs a read of its fan-out bucket, and at a million facts a bucket holds ~15 records
(1.5 KB to inflate and parse) where at ten thousand it holds one: lookups were 2.6x
slower (issue 6 asks for 1.5x). The index answers with the record's blob id at once.

It is derived data, never the truth:

* it says which commits it reflects (``meta``), and is brought to the commits a lookup
  asks about by diffing the ``proposals/`` subtrees from those it reflects (libgit2's
  tree diff: equal subtrees cost nothing, so catching up costs what changed);
* a missing, unreadable or corrupt file is rebuilt from the trees; any error falls back
  to walking the trees (:meth:`ProposalIndex.lookup` returns None);
* every record it names is checked by the caller (the record names its proposalId), and
  the caller asks the trees whenever it names none ("never decided" lets a write go on).

One SQLite file per tenant repository (``<repo>/memrepo-records.sqlite``, WAL): several
processes catch it up under SQLite's write lock, re-reading ``meta`` inside the
transaction, so two of them never apply the same diff twice.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pygit2

from . import _git, _sqlite, layout
from .errors import StoreError

INDEX_FILE = "memrepo-records.sqlite"
#: ``PRAGMA user_version`` of the layout below; a file with another one is rebuilt.
SCHEMA_VERSION = 1
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (ref TEXT PRIMARY KEY, commit_id TEXT) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS records (pid BLOB PRIMARY KEY, main BLOB, audit BLOB)"
    " WITHOUT ROWID",
)
#: Which column holds the record blob id found under each ref.
_COLUMNS = {layout.MAIN_REF: "main", layout.AUDIT_REF: "audit"}
#: Where records live (``layout.proposal_path``).
_RECORDS_DIR = "proposals"
#: What the file reflects and the row, read by one statement (so from one snapshot).
_LOOKUP = (f"SELECT (SELECT commit_id FROM meta WHERE ref = '{layout.MAIN_REF}'),"
           f" (SELECT commit_id FROM meta WHERE ref = '{layout.AUDIT_REF}'),"
           " (SELECT main FROM records WHERE pid = ?), (SELECT audit FROM records WHERE pid = ?)")


def _indexed_as(commit: _git.Oid | None) -> str:
    """How ``meta`` names a commit ("" for an absent ref; no row: never indexed)."""
    return "" if commit is None else str(commit)


def index_files(repo_path: str | os.PathLike[str]) -> list[Path]:
    """The index file of a tenant repository and SQLite's files beside it."""
    base = Path(repo_path) / INDEX_FILE
    return [base, *(Path(f"{base}{suffix}") for suffix in ("-wal", "-shm"))]


class ProposalIndex:
    """The index file of one tenant repository (see the module docstring)."""

    def __init__(self, repo_path: Path, *, durable: bool) -> None:
        self.path = Path(repo_path) / INDEX_FILE
        self.durable = durable
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def close(self) -> None:
        with self._lock:
            self._reset()

    def lookup(self, repo: pygit2.Repository, pid: str, main: _git.Oid | None,
               audit: _git.Oid | None) -> tuple[_git.Oid | None, _git.Oid | None] | None:
        """(record blob on ``main``, record blob on audit) for ``pid`` as of the commits
        ``main`` and ``audit``; None if the index cannot answer (walk the trees then).

        The commits the file reflects and the row are read by one statement, so from one
        snapshot: another process may bring the file to other commits at any moment."""
        want = (_indexed_as(main), _indexed_as(audit))
        with self._lock:
            try:
                db = self._open()
                key = bytes.fromhex(pid)
                row = db.execute(_LOOKUP, (key, key)).fetchone()  # one statement: one snapshot
                if (row[0], row[1]) != want:
                    with _transaction(db, "IMMEDIATE"):  # the write lock: one catch-up at a time
                        self._catch_up(db, repo, {layout.MAIN_REF: main,
                                                  layout.AUDIT_REF: audit})
                        row = db.execute(_LOOKUP, (key, key)).fetchone()
            except _UNAVAILABLE:
                self._reset()
                return None
        row = row[2:]
        return (None if row[0] is None else _git.Oid(raw=row[0]),
                None if row[1] is None else _git.Oid(raw=row[1]))

    def refresh(self, repo: pygit2.Repository, main: _git.Oid | None,
                audit: _git.Oid | None, *, verify: bool = False) -> Check | None:
        """Bring the file to the commits ``main`` and ``audit`` now; None if the index is
        unavailable (lookups walk the trees then).

        Maintenance calls this so that no lookup pays for building the index of a large
        tenant (~6 s at a million proposals). With ``verify``, every row is compared with
        the trees of the commits the file says it reflects, and a file that differs is
        rebuilt. The comparison reads one snapshot and takes no write lock, so writers'
        lookups go on catching the file up meanwhile."""
        want = {layout.MAIN_REF: main, layout.AUDIT_REF: audit}
        with self._lock:
            try:
                db = self._open()
                with _transaction(db, "IMMEDIATE"):
                    self._catch_up(db, repo, want)
                repaired = False
                if verify and not self._agrees_with_trees(db, repo):
                    with _transaction(db, "IMMEDIATE"):
                        db.execute("DELETE FROM meta")
                        self._catch_up(db, repo, want)
                    repaired = True
                records = db.execute("SELECT count(*) FROM records").fetchone()[0]
            except _UNAVAILABLE:
                self._reset()
                return None
        return Check(records=records, verified=verify, repaired=repaired)

    # -- internals ----------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        if self._db is None:
            for attempt in range(2):
                db = None
                try:
                    # Derived data: a crash may lose the last catch-up (meta goes back with
                    # it, so the next lookup redoes it), never leave it inconsistent.
                    db = _sqlite.connect(self.path, timeout=30.0, check_same_thread=False,
                                         synchronous="NORMAL" if self.durable else "OFF")
                    version = db.execute("PRAGMA user_version").fetchone()[0]
                    tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                    if tables and version != SCHEMA_VERSION:
                        raise sqlite3.DatabaseError(f"index layout {version}")
                    for statement in _SCHEMA:
                        db.execute(statement)
                    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                except sqlite3.DatabaseError as exc:
                    if db is not None:
                        db.close()
                    if attempt or _sqlite.is_busy(exc):
                        raise                  # busy is someone else's moment, not damage
                    self._discard_file()
                    continue
                self._db = db
                break
        assert self._db is not None
        return self._db

    def _reset(self) -> None:
        if self._db is not None:
            self._db.close()
        self._db = None

    def _discard_file(self) -> None:
        """A file SQLite cannot read is not ours to repair: it is rebuilt from the trees."""
        for path in index_files(self.path.parent):
            with contextlib.suppress(OSError):  # not ours to remove: lookups walk the trees
                path.unlink(missing_ok=True)

    def _catch_up(self, db: sqlite3.Connection, repo: pygit2.Repository,
                  want: dict[str, _git.Oid | None]) -> None:
        """Bring the file to ``want`` (inside the caller's write transaction: ``meta`` is
        read again, another process may have done part of it meanwhile)."""
        done = dict(db.execute("SELECT ref, commit_id FROM meta").fetchall())
        for ref, target in want.items():
            if done.get(ref) == _indexed_as(target):
                continue
            # never indexed, or as of an absent ref: everything from scratch
            self._apply(db, repo, _COLUMNS[ref], _git.to_oid(done.get(ref) or ""), target)
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (ref, _indexed_as(target)))
        db.execute("DELETE FROM records WHERE main IS NULL AND audit IS NULL")

    def _apply(self, db: sqlite3.Connection, repo: pygit2.Repository, column: str,
               old: _git.Oid | None, new: _git.Oid | None) -> None:
        """Set ``column`` to what the ``proposals/`` subtree holds at ``new``, by its diff
        from ``old`` (a commit no longer in the repository counts as nothing indexed)."""
        if old is not None and old not in repo.odb:
            old = None
        before = _git.subtree(_git.tree_of(repo, old), _RECORDS_DIR)
        after = _git.subtree(_git.tree_of(repo, new), _RECORDS_DIR)
        if before is None:  # from scratch: what the column held is no longer known
            db.execute(f"UPDATE records SET {column} = NULL")
        _upsert(db, "records", column, _rows(repo, before, after))

    def _agrees_with_trees(self, db: sqlite3.Connection, repo: pygit2.Repository) -> bool:
        """Whether the rows are exactly what the trees of the commits in ``meta`` hold:
        the expected rows are built the way a catch-up from scratch builds them, into a
        temporary table (no write lock on the file), and compared both ways."""
        with _transaction(db, "DEFERRED"):  # one snapshot of meta and records
            done = dict(db.execute("SELECT ref, commit_id FROM meta").fetchall())
            db.execute("DROP TABLE IF EXISTS temp.expected")
            db.execute("CREATE TEMP TABLE expected (pid BLOB PRIMARY KEY, main BLOB, "
                       "audit BLOB) WITHOUT ROWID")
            try:
                for ref, column in _COLUMNS.items():
                    if ref not in done:
                        return False
                    after = _git.subtree(_git.tree_of(repo, _git.to_oid(done[ref])),
                                         _RECORDS_DIR)
                    _upsert(db, "temp.expected", column, _rows(repo, None, after))
                db.execute("DELETE FROM temp.expected WHERE main IS NULL AND audit IS NULL")
                differ = db.execute(
                    "SELECT EXISTS (SELECT pid, main, audit FROM records"
                    " EXCEPT SELECT pid, main, audit FROM temp.expected)"
                    " OR EXISTS (SELECT pid, main, audit FROM temp.expected"
                    " EXCEPT SELECT pid, main, audit FROM records)").fetchone()[0]
            finally:
                db.execute("DROP TABLE temp.expected")
        return not differ


@dataclass(frozen=True)
class Check:
    """What :meth:`ProposalIndex.refresh` found."""

    records: int
    #: compared row by row with the trees
    verified: bool
    #: differed from the trees, and was rebuilt
    repaired: bool


#: Errors after which the index cannot answer (lookups walk the trees instead).
_UNAVAILABLE = (sqlite3.Error, OSError, StoreError, pygit2.GitError, KeyError, ValueError)


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection, kind: str) -> Iterator[None]:
    db.execute(f"BEGIN {kind}")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _rows(repo: pygit2.Repository, before: pygit2.Tree | None, after: pygit2.Tree | None
          ) -> Iterator[tuple[bytes, bytes | None]]:
    """(proposalId, record blob or None if gone) for each record that differs between two
    ``proposals/`` subtrees. Only regular files count as records.

    From nothing, the tree is walked rather than diffed: a diff lists every entry at
    once (966 MB peak at a million proposals), the walk one folder at a time (223 MB)."""
    changes = _entries(repo, after) if before is None else (
        (c.path, c.new, c.new_mode) for c in _git.changed_entries(repo, before, after))
    for path, new, mode in changes:
        name = path.rsplit("/", 1)[-1]
        if not name.endswith(".json"):
            continue
        blob = None if new is None or mode != pygit2.GIT_FILEMODE_BLOB else new.raw
        try:  # proposalIds are 64 hex digits (layout refuses others): 32 bytes here
            key = bytes.fromhex(name[:-5])
        except ValueError:
            continue
        yield key, blob


def _entries(repo: pygit2.Repository, tree: pygit2.Tree | None, prefix: str = ""
             ) -> Iterator[tuple[str, _git.Oid, int]]:
    """(path, id, mode) of every non-tree entry under ``tree``: what a diff from an empty
    tree lists, one folder at a time."""
    for entry in tree or ():
        if entry.type == pygit2.GIT_OBJECT_TREE:
            sub = repo.get(entry.id)
            assert isinstance(sub, pygit2.Tree)
            yield from _entries(repo, sub, f"{prefix}{entry.name}/")
        else:
            yield f"{prefix}{entry.name}", entry.id, entry.filemode


def _upsert(db: sqlite3.Connection, table: str, column: str,
            rows: Iterable[tuple[bytes, bytes | None]]) -> None:
    db.executemany(f"INSERT INTO {table} (pid, {column}) VALUES (?, ?) "
                   f"ON CONFLICT (pid) DO UPDATE SET {column} = excluded.{column}", rows)
