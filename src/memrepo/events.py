"""Projection events, read from the log itself, and the runner that feeds them to consumers.

There is no event table to keep in step with ``main``: every commit on the first-parent
chain of ``main`` *is* an event source. Its events are the fact files it changed, found
by diffing its tree with its first parent's, restricted to ``facts/`` (one commit may
change several facts, e.g. a revoke-by-message). Nothing can be lost or invented, and
anyone can re-derive the same events from a clone.

A consumer remembers the last commit it applied (its *position*). :func:`sync` walks the
first-parent commits after that position, oldest first, in batches that never split a
commit, and hands each batch to the consumer. Delivery is at least once: a consumer
killed after applying a batch but before recording it sees the batch again. Effects are
exactly once because a consumer applies an event only if its ``memoryId:version`` is
newer than what it holds, and a good consumer records its position in the same
transaction as the effects (see :mod:`memrepo.projections`).

The runner also keeps ``refs/memrepo/consumers/<name>`` in the tenant repository,
pointing at the consumer's position, so plain git shows how far every consumer got and
hooks can nudge the laggards. That ref is advisory: it is moved after the consumer has
recorded its own position, and the consumer's record wins when the two disagree.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from . import _git, layout
from .errors import ConcurrencyError, InputError, StoreError
from .store import Store, TenantRepo

CONSUMER_REF_PREFIX = "refs/memrepo/consumers/"
FACTS_DIR = "facts"
FACTS_PREFIX = FACTS_DIR + "/"
#: How many times :func:`sync` starts over when another process moved the position.
MAX_RESTARTS = 50

_CONSUMER_NAME = re.compile(r"[a-z0-9][a-z0-9._-]{0,63}")


@dataclass(frozen=True)
class Event:
    """One fact version written by one commit on ``main``.

    ``op`` is derived from the content: ``create`` (no file before), ``update``,
    ``revoke`` (the new version is REVOKED), ``restore`` (a rollback put back an older
    file, so the version went down; it is applied whatever version a consumer holds, which
    is still idempotent because it sets the state outright) or ``delete`` (the file was
    removed, which only plain git can do; its version is the removed one plus one).
    ``fact`` is the fact file's JSON at ``commit`` (None for a delete); ``quote`` is the
    evidence span of an ACTIVE fact, read from the source message stored on ``main``.
    """

    commit: str
    memory_id: str
    version: int
    op: str
    path: str
    fact: Mapping[str, Any] | None
    quote: str | None = None

    @property
    def key(self) -> str:
        """The idempotency key: applying the same key twice must change nothing."""
        return f"{self.memory_id}:{self.version}"


@dataclass(frozen=True)
class Batch:
    """Consecutive first-parent commits ``since`` (exclusive) .. ``until`` (inclusive)."""

    since: str | None
    until: str
    commits: tuple[str, ...]
    events: tuple[Event, ...]


class Consumer(Protocol):
    """Something kept in step with ``main`` (an index, a cache, a vector store).

    ``position()`` is the last commit whose events the consumer has applied (None: none).
    ``apply(batch)`` applies ``batch.events`` idempotently by :attr:`Event.key` and then
    records ``batch.until`` as its position, atomically with the effects if it can. It
    must raise :class:`~memrepo.errors.ConcurrencyError` (code
    ``consumer_position_moved``) when its position is no longer ``batch.since``, so
    that two syncs racing on one consumer never move it backwards.
    """

    @property
    def name(self) -> str: ...

    def position(self) -> str | None: ...

    def apply(self, batch: Batch) -> None: ...


@dataclass(frozen=True)
class SyncResult:
    consumer: str
    position: str | None
    commits: int
    events: int
    batches: int


def position_moved(consumer: str, expected: str | None, found: str | None) -> ConcurrencyError:
    return ConcurrencyError(
        f"consumer {consumer} is at {found or 'the start'}, not {expected or 'the start'}:"
        " another sync moved it", code="consumer_position_moved")


def consumer_ref(name: str) -> str:
    """The advisory ref of a consumer; names are plain (lower-case, digits, ``._-``)."""
    if not _CONSUMER_NAME.fullmatch(name):
        raise InputError(f"consumer name {name!r} is not plain ([a-z0-9._-], max 64)",
                         code="bad_consumer_name")
    return CONSUMER_REF_PREFIX + name


# -- reading events -------------------------------------------------------------------


def _fact_json(repo: _git.Repository, oid: _git.Oid, commit: str, path: str) -> dict[str, Any]:
    try:
        data = json.loads(_git.read_blob(repo, oid))
    except (ValueError, UnicodeDecodeError) as exc:
        raise StoreError(f"commit {commit}: {path} is not JSON: {exc}",
                         code="bad_fact_file") from None
    if (not isinstance(data, dict) or not isinstance(data.get("memoryId"), str)
            or not isinstance(data.get("version"), int) or data["version"] < 1):
        raise StoreError(f"commit {commit}: {path} is not a fact file (memoryId, version)",
                         code="bad_fact_file")
    return data


def _quote(repo: _git.Repository, tree: _git.Tree, fact: Mapping[str, Any],
           cache: dict[str, str | None]) -> str | None:
    evidence = fact.get("evidence")
    if fact.get("status", "ACTIVE") != "ACTIVE" or not isinstance(evidence, dict):
        return None
    message_id = evidence.get("messageId")
    start, end = evidence.get("start"), evidence.get("end")
    if not isinstance(message_id, str) or not isinstance(start, int) or not isinstance(end, int):
        return None
    if message_id not in cache:
        raw = _git.lookup_blob(repo, tree, layout.message_path(message_id))
        text = None
        if raw is not None:
            try:
                text = json.loads(raw).get("text")
            except ValueError:
                text = None
        cache[message_id] = text if isinstance(text, str) else None
    text = cache[message_id]
    if text is None or not 0 <= start <= end <= len(text):
        return None
    return text[start:end]


def commit_events(repo: _git.Repository, commit: _git.Commit) -> list[Event]:
    """The fact versions ``commit`` wrote, compared with its first parent (sorted by path)."""
    parent = commit.parents[0] if commit.parent_ids else None
    new_tree = _git.subtree(commit.tree, FACTS_DIR)
    old_tree = _git.subtree(parent.tree, FACTS_DIR) if parent is not None else None
    if (new_tree.id if new_tree else None) == (old_tree.id if old_tree else None):
        return []
    cid = str(commit.id)
    cache: dict[str, str | None] = {}
    out: list[Event] = []
    # libgit2's own tree diff walks both trees whole (30 ms a commit at 100k facts);
    # diff_blobs skips equal subtrees by id, so the cost follows the change.
    for path, before, after in sorted(_git.diff_blobs(repo, old_tree, new_tree, FACTS_PREFIX),
                                      key=lambda change: change[0]):
        if after is None:
            assert before is not None
            old = _fact_json(repo, before, str(parent.id) if parent else cid, path)
            out.append(Event(cid, old["memoryId"], old["version"] + 1, "delete", path, None))
            continue
        fact = _fact_json(repo, after, cid, path)
        if fact.get("status") == "REVOKED":
            op = "revoke"
        elif before is None:
            op = "create"
        elif fact["version"] <= _fact_json(repo, before, cid, path)["version"]:
            # A rollback writes the target's file back byte for byte, version included,
            # so the version goes down: consumers must apply it although they saw higher.
            op = "restore"
        else:
            op = "update"
        out.append(Event(cid, fact["memoryId"], fact["version"], op, path, fact,
                         _quote(repo, commit.tree, fact, cache)))
    return out


def snapshot_events(tenant: TenantRepo, at: _git.Oid | str | None = None) -> Iterator[Event]:
    """Every fact file in the tree of ``at`` (default: the tip of main) as an event.

    Replaying these into an empty consumer gives the state at ``at`` without walking
    the history: this is what a rebuild uses.
    """
    commit = resolve_commit(tenant, at)
    facts = _git.subtree(commit.tree, FACTS_DIR)
    if facts is None:
        return
    cid = str(commit.id)
    cache: dict[str, str | None] = {}
    for path, oid in _git.walk_blobs(tenant.repo, facts, FACTS_PREFIX):
        fact = _fact_json(tenant.repo, oid, cid, path)
        op = "revoke" if fact.get("status") == "REVOKED" else "create"
        yield Event(cid, fact["memoryId"], fact["version"], op, path, fact,
                    _quote(tenant.repo, commit.tree, fact, cache))


def resolve_commit(tenant: TenantRepo, at: _git.Oid | str | None) -> _git.Commit:
    """A commit by id, unique prefix or ref (default: the tip of main)."""
    if at is None:
        tip = _git.resolve(tenant.repo, layout.MAIN_REF)
        if tip is None:
            raise StoreError(f"tenant {tenant.tenant_id!r} has no main branch", code="no_main")
        return _git.get_commit(tenant.repo, tip)
    oid = at if isinstance(at, _git.Oid) else _git.resolve_commit(tenant.repo, at)
    if oid is None:
        raise InputError(f"{at} is not a commit in tenant {tenant.tenant_id!r}",
                         code="unknown_commit")
    return _git.get_commit(tenant.repo, oid)


def new_commits(tenant: TenantRepo, since: str | None, tip: _git.Oid) -> list[_git.Commit]:
    """First-parent commits after ``since`` up to ``tip``, oldest first.

    Nothing when ``since`` is already at or past ``tip``. Raises StoreError
    ``consumer_diverged`` when ``since`` is not on the first-parent chain of ``tip``
    (main was rewritten, or the position belongs to another repository): such a
    consumer can only be rebuilt.
    """
    stop = None
    if since is not None:
        stop = _git.to_oid(since)
        if stop is None:
            raise StoreError(f"consumer position {since!r} is not a commit id",
                             code="consumer_diverged")
        if stop == tip or _git.is_descendant(tenant.repo, stop, tip):
            return []
    out = list(_git.first_parent_chain(tenant.repo, tip, stop))
    if stop is not None and (not out[-1].parent_ids or out[-1].parent_ids[0] != stop):
        raise StoreError(f"consumer position {since} is not on the first-parent chain of main;"
                         " rebuild the consumer", code="consumer_diverged")
    out.reverse()
    return out


def batches(tenant: TenantRepo, since: str | None, tip: _git.Oid, *,
            batch_size: int = 500) -> Iterator[Batch]:
    """The new commits in batches of about ``batch_size`` events (a commit is never split)."""
    commits: list[str] = []
    events: list[Event] = []
    start = since
    for commit in new_commits(tenant, since, tip):
        commits.append(str(commit.id))
        events.extend(commit_events(tenant.repo, commit))
        if len(events) >= batch_size or len(commits) >= batch_size:
            yield Batch(start, commits[-1], tuple(commits), tuple(events))
            start, commits, events = commits[-1], [], []
    if commits:
        yield Batch(start, commits[-1], tuple(commits), tuple(events))


def events_between(tenant: TenantRepo, since: str | None, tip: _git.Oid | None = None
                   ) -> Iterator[Event]:
    """Every event after ``since`` up to ``tip`` (default: main), oldest first."""
    tip = tip or resolve_commit(tenant, None).id
    for batch in batches(tenant, since, tip):
        yield from batch.events


# -- the runner -----------------------------------------------------------------------


def read_ref(tenant: TenantRepo, name: str) -> str | None:
    oid = _git.resolve(tenant.repo, consumer_ref(name))
    return None if oid is None else str(oid)


def advance_ref(tenant: TenantRepo, name: str, position: str | None) -> bool:
    """Point the consumer's advisory ref at ``position``. Best effort: False if it lost a
    race (the next sync corrects it) or there is nothing to point at."""
    if position is None:
        return False
    ref = consumer_ref(name)
    current = _git.resolve(tenant.repo, ref)
    target = _git.to_oid(position)
    if target is None:
        return False
    if current == target:
        return True
    return _git.compare_and_swap(tenant.repo, {ref: (current, target)},
                                 message=f"memrepo: consumer {name} at {position[:12]}")


def sync(store: Store, tenant_id: str, consumer: Consumer, *, batch_size: int = 500,
         until: _git.Oid | str | None = None) -> SyncResult:
    """Bring ``consumer`` up to ``until`` (default: the tip of main), batch by batch.

    After each batch the consumer has recorded its new position, and the advisory ref
    follows. Killing the process at any point loses at most the batch in flight, which
    the next sync delivers again.
    """
    tenant = store.tenant(tenant_id)
    tip = resolve_commit(tenant, until).id
    commits = events = count = 0
    for _attempt in range(MAX_RESTARTS):
        position = consumer.position()
        try:
            for batch in batches(tenant, position, tip, batch_size=batch_size):
                consumer.apply(batch)
                commits += len(batch.commits)
                events += len(batch.events)
                count += 1
                advance_ref(tenant, consumer.name, batch.until)
        except ConcurrencyError as exc:
            if exc.code != "consumer_position_moved":
                raise
            continue
        final = consumer.position()
        if read_ref(tenant, consumer.name) != final:
            advance_ref(tenant, consumer.name, final)
        return SyncResult(consumer.name, final, commits, events, count)
    raise ConcurrencyError(f"consumer {consumer.name} kept moving under sync",
                           code="consumer_position_moved")


def on_refs_updated(repo_path: str | Path, updates: Sequence[Any]) -> list[SyncResult]:
    """Nudge from a git hook (:func:`memrepo.hooks.notify`): refs of a tenant repository
    moved outside the library, e.g. by ``git push``. When ``main`` moved, the projections
    that exist for that tenant are synced, so pushed commits are projected exactly like
    library commits (which projections pick up lazily, at their next sync or search).
    ``updates`` are objects with a ``ref`` attribute; a repository outside a memrepo
    store is ignored."""
    from . import projections
    from .store import STORE_MARKER, TENANTS_DIR

    if not any(getattr(u, "ref", None) == layout.MAIN_REF for u in updates):
        return []
    path = Path(repo_path).resolve()
    root = path.parent.parent
    ident = path / "memrepo-tenant"
    if path.parent.name != TENANTS_DIR or not (root / STORE_MARKER).exists() \
            or not ident.exists():
        return []
    return projections.sync_existing(Store(root), ident.read_text("utf-8"))

