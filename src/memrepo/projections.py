"""Embedded projections of ``main``: a SQLite full-text index and a vector index of live facts.

Each projection is one SQLite file under ``<store>/projections/<tenant>/`` and one
:class:`~memrepo.events.Consumer`. It holds a state table with the newest version it
applied of every memoryId (any status, so an old event replayed later is recognised and
ignored) and a searchable table holding only *live* facts (ACTIVE and unexpired): an
FTS5 table for :class:`FactsProjection`, a table of embedding vectors for
:class:`VectorProjection`. A revoked, deleted or expired fact leaves the searchable
table in the same transaction that records its new version.

Where a projection stands: the commit it applied last is stored in its own ``meta``
table *in the same SQLite transaction as the effects*, so effect and position can never
disagree. That value wins. The ref ``refs/memrepo/consumers/<name>`` in the tenant
repository is only a copy for git users and hooks, moved after the transaction
commits; a process killed in between leaves it one batch behind until the next sync.
A projection file that is lost is simply replayed (or rebuilt from a snapshot).

Chinese, Japanese and Korean text has no spaces between words and FTS5's unicode61
tokenizer would take a whole run of ideographs as one token; its trigram tokenizer
cannot match words shorter than three characters, which most Chinese words are. So
text is analysed here before it reaches FTS5: runs of CJK characters become their
single characters and character bigrams, other text is split into words; queries are
analysed the same way. This works with any SQLite that has FTS5.

The default embedder (:class:`HashEmbedder`) needs nothing downloaded: signed hashed
character n-grams, L2-normalised, compared by cosine in pure Python. Any object with
``name``, ``dim`` and ``embed(texts)`` can replace it (``--embedder module:attr``). If
the ``sqlite_vec`` package is importable and this Python's sqlite3 can load
extensions, cosine distance is computed by sqlite-vec over the same BLOB column.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import operator
import os
import re
import sqlite3
import sys
import unicodedata
import zlib
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from . import _sqlite, canonical, events, layout
from .errors import InputError, StoreError
from .events import Batch, Event, SyncResult
from .proposal import parse_time
from .store import Store

PROJECTIONS_DIR = "projections"
SCHEMA_VERSION = "1"
BUSY_TIMEOUT_MS = 30_000
#: Facts applied per transaction in a rebuild (bounds memory for embeddings).
REBUILD_CHUNK = 2_000

# -- text analysis ----------------------------------------------------------------------

_CJK_CHARS = (
    "\u3040-\u30ff"          # Hiragana, Katakana
    "\u3100-\u312f"          # Bopomofo
    "\u3400-\u4dbf"          # CJK Extension A
    "\u4e00-\u9fff"          # CJK Unified Ideographs
    "\uac00-\ud7af"          # Hangul syllables
    "\uf900-\ufaff"          # CJK Compatibility Ideographs
    "\U00020000-\U0003134f"  # CJK Extensions B-G
)
_RUNS = re.compile(rf"(?P<cjk>[{_CJK_CHARS}]+)|(?P<word>(?:(?![{_CJK_CHARS}])[^\W_])+)")


def _runs(text: str) -> Iterator[tuple[bool, str]]:
    """(is_cjk, run) for every word or CJK run of the normalised, case-folded text."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    for match in _RUNS.finditer(folded):
        if match.group("cjk"):
            yield True, match.group("cjk")
        else:
            yield False, match.group("word")


def index_terms(text: str) -> str:
    """Text as FTS5 should see it: words, and CJK runs as characters plus bigrams."""
    out: list[str] = []
    for cjk, run in _runs(text):
        if cjk:
            out.extend(run)
            out.extend(run[i:i + 2] for i in range(len(run) - 1))
        else:
            out.append(run)
    return " ".join(out)


def match_expression(query: str, *, any_term: bool = False) -> str | None:
    """An FTS5 MATCH expression for a user's query (None when it has no searchable term).

    Words match as prefixes; a CJK run matches its bigrams (its character when single).
    All terms must match unless ``any_term``.
    """
    terms: list[str] = []
    for cjk, run in _runs(query):
        if cjk:
            grams = [run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)]
            terms.extend(f'"{g}"' for g in grams)
        else:
            terms.append(f'"{run}"*')
    terms = list(dict.fromkeys(terms))
    if not terms:
        return None
    return "(" + (" OR " if any_term else " AND ").join(terms) + ")"


def value_text(value: Any) -> str:
    """The words of a JSON value: strings, numbers and object keys, depth first."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, Mapping):
        return " ".join(f"{k} {value_text(v)}" for k, v in value.items())
    if isinstance(value, Sequence):
        return " ".join(value_text(v) for v in value)
    return str(value)


def fact_text(fact: Mapping[str, Any], quote: str | None = None) -> str:
    """What an embedder sees for a fact: kind, key, value and the evidence quote."""
    key = str(fact.get("normalizedKey", "")).replace("_", " ")
    parts = [str(fact.get("kind", "")), key, value_text(fact.get("value")), quote or ""]
    return " ".join(p for p in parts if p)


# -- embedders ----------------------------------------------------------------------------


class Embedder(Protocol):
    """Turns texts into vectors of ``dim`` floats; ``name`` changes when the vectors would."""

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[Sequence[float]]: ...


class HashEmbedder:
    """Signed feature hashing of words, character trigrams and CJK uni/bigrams.

    Deterministic across processes and machines (CRC-32, not Python's salted hash),
    offline, dependency-free. It captures spelling overlap, not meaning: a model
    embedder plugged in through :func:`load_embedder` does that.
    """

    def __init__(self, dim: int = 256) -> None:
        if dim < 8:
            raise InputError("an embedding needs at least 8 dimensions", code="bad_embedder")
        self._dim = dim

    @property
    def name(self) -> str:
        return f"hash-ngram-v1-{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def _features(self, text: str) -> Iterator[tuple[str, float]]:
        for cjk, run in _runs(text):
            if cjk:
                for ch in run:
                    yield ch, 0.5
                for i in range(len(run) - 1):
                    yield run[i:i + 2], 1.0
            else:
                yield "w:" + run, 1.0
                padded = f"<{run}>"
                for i in range(len(padded) - 2):
                    yield padded[i:i + 3], 0.5

    def embed(self, texts: Sequence[str]) -> list[Sequence[float]]:
        out: list[Sequence[float]] = []
        dim = self._dim
        for text in texts:
            vec = [0.0] * dim
            for feature, weight in self._features(text):
                h = zlib.crc32(feature.encode("utf-8"))
                vec[h % dim] += weight if (h >> 31) & 1 else -weight
            norm = math.sqrt(sum(x * x for x in vec))
            out.append([x / norm for x in vec] if norm else vec)
        return out


def load_embedder(spec: str | None = None) -> Embedder:
    """``hash`` / ``hash:DIM`` (default, from ``$MEMREPO_EMBEDDER``) or ``module:attr``.

    ``module:attr`` names an embedder object, class or factory; it is imported only
    when asked for, so an embedder that needs a downloaded model stays optional.
    """
    spec = spec or os.environ.get("MEMREPO_EMBEDDER") or "hash"
    kind, _, arg = spec.partition(":")
    if kind == "hash":
        try:
            return HashEmbedder(int(arg) if arg else 256)
        except ValueError:
            raise InputError(f"bad embedder {spec!r}: hash:DIM takes a number",
                             code="bad_embedder") from None
    if not arg:
        raise InputError(f"unknown embedder {spec!r} (use hash, hash:DIM or module:attr)",
                         code="bad_embedder")
    try:
        target = getattr(importlib.import_module(kind), arg)
    except (ImportError, AttributeError) as exc:
        raise InputError(f"cannot load embedder {spec!r}: {exc}", code="bad_embedder") from None
    embedder = target() if isinstance(target, type) or not hasattr(target, "embed") else target
    if not all(hasattr(embedder, a) for a in ("name", "dim", "embed")):
        raise InputError(f"{spec!r} is not an embedder (needs name, dim, embed)",
                         code="bad_embedder")
    return embedder  # type: ignore[no-any-return]


def _pack(vec: Sequence[float]) -> bytes:
    arr = array("f", vec)
    if sys.byteorder != "little":  # pragma: no cover - sqlite-vec expects little-endian
        arr.byteswap()
    return arr.tobytes()


def _unpack(blob: bytes) -> array[float]:
    arr = array("f")
    arr.frombytes(blob)
    if sys.byteorder != "little":  # pragma: no cover
        arr.byteswap()
    return arr


# -- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """One search result: a live fact and how well it matched (higher is better)."""

    memory_id: str
    version: int
    subject_id: str
    scope: dict[str, str]
    kind: str
    normalized_key: str
    value: Any
    quote: str | None
    score: float

    def to_json(self) -> dict[str, Any]:
        return {"memoryId": self.memory_id, "version": self.version,
                "subjectId": self.subject_id, "scope": self.scope, "kind": self.kind,
                "normalizedKey": self.normalized_key, "value": self.value,
                "evidenceQuote": self.quote, "score": round(self.score, 6)}


@dataclass(frozen=True)
class Drift:
    """One way a projection differs from ``main``: missing, stale or extra."""

    projection: str
    kind: str
    memory_id: str
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"projection": self.projection, "kind": self.kind,
                "memoryId": self.memory_id, "detail": self.detail}


@dataclass(frozen=True)
class Report:
    """A projection compared with ``main`` at ``main_commit``."""

    projection: str
    path: str
    position: str | None
    main_commit: str
    live_on_main: int
    live_here: int
    drift: tuple[Drift, ...] = ()
    #: Facts REVOKED on main that this projection can still return from a search.
    revocation_residue: int = 0

    @property
    def ok(self) -> bool:
        return not self.drift and self.revocation_residue == 0

    def to_json(self) -> dict[str, Any]:
        return {"projection": self.projection, "path": self.path, "position": self.position,
                "main": self.main_commit, "liveOnMain": self.live_on_main,
                "liveHere": self.live_here, "ok": self.ok,
                "revocationResidue": self.revocation_residue,
                "drift": [d.to_json() for d in self.drift]}


def _now_ts(now: datetime | None) -> float:
    return (now or datetime.now(UTC)).timestamp()


def _expiry_ts(fact: Mapping[str, Any]) -> float | None:
    raw = fact.get("expiresAt")
    return None if raw is None else parse_time(raw).timestamp()


def _value_key(value: Any) -> str:
    return canonical.jcs(value).decode("utf-8")


def projection_dir(store: Store, tenant_id: str) -> Path:
    return store.root / PROJECTIONS_DIR / layout.component(tenant_id)


def _plain(name: str) -> str:
    return re.sub(r"[^a-z0-9._-]+", "-", name.lower()).strip("-")[:40] or "x"


# -- the common machinery -----------------------------------------------------------------


@dataclass
class _Pending:
    """Rows to (re)index at the end of a transaction, so embeddings are computed in bulk."""

    rows: dict[int, tuple[Mapping[str, Any], str | None]] = field(default_factory=dict)


class SqliteProjection:
    """A consumer of ``main`` kept in one SQLite file (see the module docstring)."""

    kind = "base"
    file_name = "base.sqlite"

    def __init__(self, store: Store, tenant_id: str, *, path: Path | None = None) -> None:
        self.store = store
        self.tenant_id = tenant_id
        self.path = path or projection_dir(store, tenant_id) / self.file_name
        #: The moment "live" is judged at while applying (set by :meth:`sync`).
        self.now: datetime | None = None
        self._conn: sqlite3.Connection | None = None

    # -- identity and connection

    @property
    def name(self) -> str:
        """The consumer name (its advisory ref is ``refs/memrepo/consumers/<name>``)."""
        return f"sqlite-{self.kind}"

    def _identity(self) -> dict[str, str]:
        return {"schema": SCHEMA_VERSION, "kind": self.kind, "tenant": self.tenant_id}

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = self._open()
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> SqliteProjection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = _sqlite.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000,
                                   synchronous="FULL" if self.store.durable else "NORMAL")
            self._prepare(conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open projection {self.path}: {exc}",
                             code="projection_unreadable") from exc
        return conn

    def _stored_identity(self, conn: sqlite3.Connection) -> dict[str, str]:
        try:
            stored = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.OperationalError:
            return {}                                      # no meta table yet
        if stored.get("tenant") not in (None, self.tenant_id):
            raise StoreError(f"{self.path} belongs to tenant {stored['tenant']!r}",
                             code="projection_tenant_mismatch")
        return stored

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Create the schema, or recreate it when it was made for another schema/embedder.

        An existing, matching file is only read, so opening one to search never waits
        for a writer's transaction.
        """
        wanted = {**self._identity(), "ready": "1"}
        stored = self._stored_identity(conn)
        if all(stored.get(k) == v for k, v in wanted.items()):
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT)")
            stored = self._stored_identity(conn)
            if any(stored.get(k) != v for k, v in wanted.items()):
                self._drop(conn)
                conn.execute("DELETE FROM meta")
                conn.executemany("INSERT INTO meta(key, value) VALUES (?, ?)", wanted.items())
            # AUTOINCREMENT: a row id is never reused, so an index row left behind by
            # damage can never attach itself to another fact.
            conn.execute(
                "CREATE TABLE IF NOT EXISTS facts("
                " id INTEGER PRIMARY KEY AUTOINCREMENT, memory_id TEXT NOT NULL UNIQUE,"
                " version INTEGER NOT NULL, status TEXT NOT NULL, subject_id TEXT,"
                " scope_kind TEXT, scope_key TEXT, kind TEXT, normalized_key TEXT,"
                " value TEXT, quote TEXT, expires_ts REAL, path TEXT NOT NULL,"
                " searchable INTEGER NOT NULL DEFAULT 0)")
            conn.execute("CREATE INDEX IF NOT EXISTS facts_expiry ON facts(expires_ts)"
                         " WHERE searchable = 1")
            self._create(conn)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _drop(self, conn: sqlite3.Connection) -> None:
        conn.execute("DROP TABLE IF EXISTS facts")

    def _create(self, conn: sqlite3.Connection) -> None:
        raise NotImplementedError

    def _index(self, conn: sqlite3.Connection, pending: _Pending) -> None:
        raise NotImplementedError

    def _unindex(self, conn: sqlite3.Connection, row_id: int) -> None:
        raise NotImplementedError

    def indexed_ids(self) -> set[int]:
        """Row ids present in the searchable table."""
        raise NotImplementedError

    def _index_problems(self) -> list[tuple[int, str]]:
        """Searchable rows that are malformed (row id, what is wrong)."""
        return []

    # -- Consumer protocol

    def position(self) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'position'").fetchone()
        return None if row is None else str(row[0])

    def apply(self, batch: Batch) -> None:
        """Apply a batch and record its last commit in one transaction (idempotent)."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'position'").fetchone()
            found = None if row is None else row[0]
            if found != batch.since:
                raise events.position_moved(self.name, batch.since, found)
            self._apply_events(conn, batch.events, _now_ts(self.now))
            self._set_position(conn, batch.until)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @staticmethod
    def _set_position(conn: sqlite3.Connection, position: str | None) -> None:
        if position is None:
            conn.execute("DELETE FROM meta WHERE key = 'position'")
        else:
            conn.execute("INSERT INTO meta(key, value) VALUES ('position', ?)"
                         " ON CONFLICT(key) DO UPDATE SET value = excluded.value", (position,))

    def _apply_events(self, conn: sqlite3.Connection, evs: Iterable[Event], now_ts: float
                      ) -> int:
        pending = _Pending()
        applied = 0
        for ev in evs:
            if self._apply_one(conn, ev, now_ts, pending):
                applied += 1
        if pending.rows:
            self._index(conn, pending)
        return applied

    def _apply_one(self, conn: sqlite3.Connection, ev: Event, now_ts: float, pending: _Pending
                   ) -> bool:
        row = conn.execute("SELECT id, version, searchable FROM facts WHERE memory_id = ?",
                           (ev.memory_id,)).fetchone()
        if row is not None and row[1] >= ev.version and ev.op != "restore":
            return False  # seen this memoryId:version (or a newer one) already
        if row is not None and row[2]:
            self._unindex(conn, row[0])
            pending.rows.pop(row[0], None)
        fact = ev.fact
        if fact is None:
            if row is None:
                conn.execute("INSERT INTO facts(memory_id, version, status, path, searchable)"
                             " VALUES (?, ?, 'DELETED', ?, 0)",
                             (ev.memory_id, ev.version, ev.path))
            else:
                conn.execute("UPDATE facts SET version = ?, status = 'DELETED', searchable = 0"
                             " WHERE id = ?", (ev.version, row[0]))
            return True
        status = str(fact.get("status", "ACTIVE"))
        expires = _expiry_ts(fact)
        live = status == "ACTIVE" and (expires is None or expires > now_ts)
        scope = fact.get("scope") or {}
        values = (ev.version, status, fact.get("subjectId"), scope.get("kind"),
                  scope.get("key"), fact.get("kind"), fact.get("normalizedKey"),
                  _value_key(fact.get("value")), ev.quote, expires, ev.path, int(live))
        if row is None:
            cur = conn.execute(
                "INSERT INTO facts(version, status, subject_id, scope_kind, scope_key, kind,"
                " normalized_key, value, quote, expires_ts, path, searchable, memory_id)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (*values, ev.memory_id))
            row_id = int(cur.lastrowid or 0)
        else:
            row_id = row[0]
            conn.execute(
                "UPDATE facts SET version = ?, status = ?, subject_id = ?, scope_kind = ?,"
                " scope_key = ?, kind = ?, normalized_key = ?, value = ?, quote = ?,"
                " expires_ts = ?, path = ?, searchable = ? WHERE id = ?", (*values, row_id))
        if live:
            pending.rows[row_id] = (fact, ev.quote)
        return True

    # -- running

    def sync(self, *, batch_size: int = 500, now: datetime | None = None,
             until: str | None = None) -> SyncResult:
        """Apply everything new on main; rebuild when main no longer contains our position."""
        self.now = now
        try:
            result = events.sync(self.store, self.tenant_id, self, batch_size=batch_size,
                                 until=until)
        except StoreError as exc:
            if exc.code != "consumer_diverged":
                raise
            count = self.rebuild(at=until, now=now)
            result = SyncResult(self.name, self.position(), 0, count, 1)
        self.purge_expired(now)
        return result

    def rebuild(self, at: str | None = None, *, now: datetime | None = None) -> int:
        """Replace the contents with the snapshot of ``at`` (default: main's tip).

        Reads the tree of one commit, not the history. The old contents stay visible
        to readers until the new ones are committed in one transaction.
        """
        tenant = self.store.tenant(self.tenant_id)
        commit = events.resolve_commit(tenant, at)
        now_ts = _now_ts(now)
        conn = self.conn
        count = 0
        conn.execute("BEGIN IMMEDIATE")
        try:
            self._clear(conn)
            chunk: list[Event] = []
            for ev in events.snapshot_events(tenant, commit.id):
                chunk.append(ev)
                if len(chunk) >= REBUILD_CHUNK:
                    count += self._apply_events(conn, chunk, now_ts)
                    chunk = []
            count += self._apply_events(conn, chunk, now_ts)
            self._set_position(conn, str(commit.id))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        events.advance_ref(tenant, self.name, str(commit.id))
        return count

    def _clear(self, conn: sqlite3.Connection) -> None:
        conn.execute("DELETE FROM facts")

    def purge_expired(self, now: datetime | None = None) -> int:
        """Take facts whose expiry has passed out of the searchable table."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            ids = [r[0] for r in conn.execute(
                "SELECT id FROM facts WHERE searchable = 1 AND expires_ts IS NOT NULL"
                " AND expires_ts <= ?", (_now_ts(now),))]
            for row_id in ids:
                self._unindex(conn, row_id)
            conn.executemany("UPDATE facts SET searchable = 0 WHERE id = ?",
                             [(i,) for i in ids])
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return len(ids)

    # -- checking

    def verify(self, expected: Mapping[str, tuple[int, Mapping[str, Any]]],
               revoked: set[str], main_commit: str, *, now: datetime | None = None) -> Report:
        """Compare with the live facts of main (``expected``: memoryId -> (version, fact))."""
        now_ts = _now_ts(now)
        rows = self.conn.execute(
            "SELECT id, memory_id, version, status, value, expires_ts FROM facts").fetchall()
        by_id = {r[0]: r[1] for r in rows}
        live = {r[1]: (r[0], r[2], r[4]) for r in rows
                if r[3] == "ACTIVE" and (r[5] is None or r[5] > now_ts)}
        indexed = self.indexed_ids()
        drift: list[Drift] = []

        def add(kind: str, mid: str, detail: str) -> None:
            drift.append(Drift(self.name, kind, mid, detail))

        for mid, (version, fact) in sorted(expected.items()):
            here = live.get(mid)
            if here is None:
                add("missing", mid, f"v{version} is live on main, not here")
            elif here[1] != version:
                add("stale", mid, f"v{here[1]} here, v{version} on main")
            elif here[2] != _value_key(fact.get("value")):
                add("stale", mid, f"v{version} value differs from main")
            elif here[0] not in indexed:
                add("missing", mid, f"v{version} is not in the {self.kind} index")
        for mid, (_row_id, version, _value) in sorted(live.items()):
            if mid not in expected:
                add("extra", mid, f"v{version} is live here, not on main")
        residue = 0
        for row_id in sorted(indexed):
            mid = by_id.get(row_id)
            if mid is None:
                add("extra", f"row:{row_id}", f"{self.kind} index row without a fact")
                continue
            residue += mid in revoked
            if mid not in live and mid not in expected:
                add("extra", mid, f"{self.kind} index row of a fact that is not live")
        for row_id, problem in self._index_problems():
            add("stale", by_id.get(row_id, f"row:{row_id}"), problem)
        return Report(self.name, str(self.path), self.position(), main_commit, len(expected),
                      len(live), tuple(drift), residue)


# -- full text ----------------------------------------------------------------------------


def _subject_token(subject_id: str) -> str:
    """An opaque single FTS5 token per subject, so a search is confined by the index."""
    return "s" + hashlib.sha256(subject_id.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def _row_hit(row: Sequence[Any], score: float) -> Hit:
    return Hit(memory_id=row[0], version=row[1], subject_id=row[2],
               scope={"kind": row[3], "key": row[4]}, kind=row[5], normalized_key=row[6],
               value=json.loads(row[7]), quote=row[8], score=score)


_HIT_COLUMNS = ("f.memory_id, f.version, f.subject_id, f.scope_kind, f.scope_key, f.kind,"
                " f.normalized_key, f.value, f.quote")


class FactsProjection(SqliteProjection):
    """Current facts with an FTS5 index over kind, key, value and evidence quote."""

    kind = "facts"
    file_name = "facts.sqlite"

    def _drop(self, conn: sqlite3.Connection) -> None:
        super()._drop(conn)
        conn.execute("DROP TABLE IF EXISTS facts_fts")

    def _create(self, conn: sqlite3.Connection) -> None:
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts USING fts5("
                     "subject, kind, key, value, quote,"
                     " tokenize = 'unicode61 remove_diacritics 2')")

    def _clear(self, conn: sqlite3.Connection) -> None:
        super()._clear(conn)
        conn.execute("DELETE FROM facts_fts")

    def _index(self, conn: sqlite3.Connection, pending: _Pending) -> None:
        conn.executemany(
            "INSERT INTO facts_fts(rowid, subject, kind, key, value, quote)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(row_id, _subject_token(str(fact.get("subjectId"))),
              index_terms(str(fact.get("kind", ""))),
              index_terms(str(fact.get("normalizedKey", ""))),
              index_terms(value_text(fact.get("value"))), index_terms(quote or ""))
             for row_id, (fact, quote) in pending.rows.items()])

    def _unindex(self, conn: sqlite3.Connection, row_id: int) -> None:
        conn.execute("DELETE FROM facts_fts WHERE rowid = ?", (row_id,))

    def indexed_ids(self) -> set[int]:
        return {r[0] for r in self.conn.execute("SELECT rowid FROM facts_fts")}

    def _index_problems(self) -> list[tuple[int, str]]:
        try:
            self.conn.execute("INSERT INTO facts_fts(facts_fts) VALUES ('integrity-check')")
        except sqlite3.DatabaseError as exc:
            return [(0, f"FTS5 integrity check failed: {exc}")]
        return []

    def search(self, subject_id: str, query: str, *, limit: int = 10,
               now: datetime | None = None) -> list[Hit]:
        """Live facts of one subject matching every term (or, failing that, any term)."""
        hits: list[Hit] = []
        for any_term in (False, True):
            expr = match_expression(query, any_term=any_term)
            if expr is None:
                return []
            token = _subject_token(subject_id)
            match = f'subject : "{token}" AND {{kind key value quote}} : {expr}'
            rows = self.conn.execute(
                f"SELECT {_HIT_COLUMNS}, bm25(facts_fts, 0.0, 1.0, 2.0, 4.0, 1.0) AS rank"
                " FROM facts_fts JOIN facts f ON f.id = facts_fts.rowid"
                " WHERE facts_fts MATCH ? AND f.searchable = 1 AND f.subject_id = ?"
                " AND (f.expires_ts IS NULL OR f.expires_ts > ?)"
                " ORDER BY rank LIMIT ?", (match, subject_id, _now_ts(now), limit)).fetchall()
            hits = [_row_hit(r, -float(r[9])) for r in rows]
            if hits:
                break
        return hits


# -- vectors ------------------------------------------------------------------------------


def _load_sqlite_vec(conn: sqlite3.Connection) -> bool:
    """Load sqlite-vec into ``conn`` if it is installed and loadable; never required."""
    if os.environ.get("MEMREPO_SQLITE_VEC", "1") == "0":
        return False
    if not hasattr(conn, "enable_load_extension"):
        return False
    try:
        sqlite_vec = importlib.import_module("sqlite_vec")
        conn.enable_load_extension(True)
        try:
            sqlite_vec.load(conn)
        finally:
            conn.enable_load_extension(False)
        conn.execute("SELECT vec_distance_cosine(?, ?)", (_pack([1.0]), _pack([1.0])))
    except Exception:  # any failure just means: compute cosine in Python
        return False
    return True


class VectorProjection(SqliteProjection):
    """Embedding vectors of live facts (unit-length float32 BLOBs), searched by cosine."""

    kind = "vectors"

    def __init__(self, store: Store, tenant_id: str, *, embedder: Embedder | None = None,
                 path: Path | None = None) -> None:
        self.embedder = embedder or load_embedder()
        self.file_name = f"vectors-{_plain(self.embedder.name)}.sqlite"
        super().__init__(store, tenant_id, path=path)
        self.uses_sqlite_vec = False

    @property
    def name(self) -> str:
        return f"sqlite-vectors-{_plain(self.embedder.name)}"

    def _identity(self) -> dict[str, str]:
        return {**super()._identity(), "embedder": self.embedder.name,
                "dim": str(self.embedder.dim)}

    def _open(self) -> sqlite3.Connection:
        conn = super()._open()
        self.uses_sqlite_vec = _load_sqlite_vec(conn)
        return conn

    def _drop(self, conn: sqlite3.Connection) -> None:
        super()._drop(conn)
        conn.execute("DROP TABLE IF EXISTS vectors")

    def _create(self, conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE IF NOT EXISTS vectors("
                     " id INTEGER PRIMARY KEY, subject_id TEXT NOT NULL, vec BLOB NOT NULL)")
        conn.execute("CREATE INDEX IF NOT EXISTS vectors_subject ON vectors(subject_id)")

    def _clear(self, conn: sqlite3.Connection) -> None:
        super()._clear(conn)
        conn.execute("DELETE FROM vectors")

    def _index(self, conn: sqlite3.Connection, pending: _Pending) -> None:
        items = list(pending.rows.items())
        vectors = self.embedder.embed([fact_text(fact, quote) for _, (fact, quote) in items])
        if len(vectors) != len(items):
            raise StoreError(f"embedder {self.embedder.name} returned {len(vectors)} vectors "
                             f"for {len(items)} texts", code="bad_embedder")
        rows = []
        for (row_id, (fact, _quote)), vec in zip(items, vectors, strict=True):
            if len(vec) != self.embedder.dim:
                raise StoreError(f"embedder {self.embedder.name} returned {len(vec)} dimensions,"
                                 f" not {self.embedder.dim}", code="bad_embedder")
            norm = math.sqrt(sum(x * x for x in vec))
            unit = [x / norm for x in vec] if norm else list(vec)
            rows.append((row_id, str(fact.get("subjectId")), _pack(unit)))
        conn.executemany("INSERT OR REPLACE INTO vectors(id, subject_id, vec) VALUES (?, ?, ?)",
                         rows)

    def _unindex(self, conn: sqlite3.Connection, row_id: int) -> None:
        conn.execute("DELETE FROM vectors WHERE id = ?", (row_id,))

    def indexed_ids(self) -> set[int]:
        return {r[0] for r in self.conn.execute("SELECT id FROM vectors")}

    def _index_problems(self) -> list[tuple[int, str]]:
        size = 4 * self.embedder.dim
        return [(r[0], f"vector has {r[1]} bytes, not {size}") for r in self.conn.execute(
            "SELECT id, length(vec) FROM vectors WHERE length(vec) != ?", (size,))]

    def search(self, subject_id: str, query: str, *, limit: int = 10,
               now: datetime | None = None) -> list[Hit]:
        """Live facts of one subject by cosine similarity to the query (positive only)."""
        qvec = list(self.embedder.embed([query])[0])
        norm = math.sqrt(sum(x * x for x in qvec))
        if not norm:
            return []
        qvec = [x / norm for x in qvec]
        where = ("FROM vectors v JOIN facts f ON f.id = v.id WHERE v.subject_id = ?"
                 " AND f.searchable = 1 AND (f.expires_ts IS NULL OR f.expires_ts > ?)")
        args: tuple[Any, ...] = (subject_id, _now_ts(now))
        if self.uses_sqlite_vec:  # pragma: no cover - only where sqlite-vec loads
            rows = self.conn.execute(
                f"SELECT {_HIT_COLUMNS}, 1.0 - vec_distance_cosine(v.vec, ?) AS score {where}"
                " ORDER BY score DESC LIMIT ?", (_pack(qvec), *args, limit)).fetchall()
            return [_row_hit(r, float(r[9])) for r in rows if r[9] is not None and r[9] > 0]
        scored = []
        for row in self.conn.execute(f"SELECT {_HIT_COLUMNS}, v.vec {where}", args):
            score = sum(map(operator.mul, _unpack(row[9]), qvec))  # both are unit vectors
            if score > 0:
                scored.append((score, row))
        scored.sort(key=lambda item: (-item[0], item[1][0]))
        return [_row_hit(row, score) for score, row in scored[:limit]]


# -- the store-level API --------------------------------------------------------------------


def open_projections(store: Store, tenant_id: str, *, embedder: Embedder | None = None
                     ) -> list[SqliteProjection]:
    """Every projection of a tenant: the full-text one and the vector one."""
    store.tenant(tenant_id)  # fails early for an unknown tenant
    return [FactsProjection(store, tenant_id),
            VectorProjection(store, tenant_id, embedder=embedder)]


def _close_all(projections: Iterable[SqliteProjection]) -> None:
    for projection in projections:
        projection.close()


def sync_all(store: Store, tenant_id: str, *, embedder: Embedder | None = None,
             now: datetime | None = None, batch_size: int = 500) -> list[SyncResult]:
    projections = open_projections(store, tenant_id, embedder=embedder)
    try:
        return [p.sync(now=now, batch_size=batch_size) for p in projections]
    finally:
        _close_all(projections)


def sync_existing(store: Store, tenant_id: str, *, embedder: Embedder | None = None
                  ) -> list[SyncResult]:
    """Sync the projections of a tenant whose files exist (a vector file only for the
    configured embedder: another embedder's vectors cannot be computed here)."""
    out = []
    for projection in open_projections(store, tenant_id, embedder=embedder):
        if projection.path.exists():
            with projection:
                out.append(projection.sync())
    return out


def rebuild_all(store: Store, tenant_id: str, *, at: str | None = None,
                embedder: Embedder | None = None, now: datetime | None = None
                ) -> list[tuple[str, int]]:
    projections = open_projections(store, tenant_id, embedder=embedder)
    try:
        return [(p.name, p.rebuild(at=at, now=now)) for p in projections]
    finally:
        _close_all(projections)


def main_state(store: Store, tenant_id: str, at: str | None = None, *,
               now: datetime | None = None
               ) -> tuple[dict[str, tuple[int, Mapping[str, Any]]], set[str]]:
    """What every projection must hold at ``at``: live facts by memoryId -> (version, fact),
    and the memoryIds that are REVOKED there (which no projection may return)."""
    now_ts = _now_ts(now)
    live: dict[str, tuple[int, Mapping[str, Any]]] = {}
    revoked: set[str] = set()
    for ev in events.snapshot_events(store.tenant(tenant_id), at):
        fact = ev.fact
        assert fact is not None
        if fact.get("status", "ACTIVE") != "ACTIVE":
            revoked.add(ev.memory_id)
            continue
        expires = _expiry_ts(fact)
        if expires is None or expires > now_ts:
            live[ev.memory_id] = (ev.version, fact)
    return live, revoked


def verify_all(store: Store, tenant_id: str, *, embedder: Embedder | None = None,
               now: datetime | None = None, sync: bool = True) -> list[Report]:
    """Compare every projection with the live facts at main's tip (syncing first unless told
    not to, in which case lag shows up as drift)."""
    now = now or datetime.now(UTC)
    tenant = store.tenant(tenant_id)
    tip = str(events.resolve_commit(tenant, None).id)
    expected, revoked = main_state(store, tenant_id, tip, now=now)
    projections = open_projections(store, tenant_id, embedder=embedder)
    try:
        if sync:
            for p in projections:
                p.sync(now=now, until=tip)
        return [p.verify(expected, revoked, tip, now=now) for p in projections]
    finally:
        _close_all(projections)


def search(store: Store, tenant_id: str, subject_id: str, query: str, *, vector: bool = False,
           limit: int = 10, embedder: Embedder | None = None, sync: bool = True,
           now: datetime | None = None) -> list[Hit]:
    """Search one subject's live facts, after bringing the projection up to main."""
    if limit < 1:
        raise InputError("limit must be at least 1", code="usage")
    store.tenant(tenant_id)
    projection: FactsProjection | VectorProjection = (
        VectorProjection(store, tenant_id, embedder=embedder) if vector
        else FactsProjection(store, tenant_id))
    with projection:
        if sync:
            projection.sync(now=now)
        return projection.search(subject_id, query, limit=limit, now=now)
