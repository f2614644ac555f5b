"""A store: one directory, one bare git repository per tenant, facts as JSON files.

The store knows where things are and how to write them atomically; it does not decide
anything (that is :mod:`memrepo.gate`). Every write is a commit whose parent is the tip
a decision was made on, published with compare-and-swap; a caller that loses the race
gets ``False`` back and must decide again on the new tip.

Durability (issue 6): with ``durable=True`` (the default; ``durable=False``,
``MEMREPO_FSYNC=0`` or the CLI's ``--no-fsync`` trade it away for tests and bulk loads)
a write is reported only once its objects and the ref update are on stable storage.
Writes made inside :meth:`TenantRepo.staged` (the gate and ingest use it) keep their
objects in memory, however many commits the batch holds, and publish them as one
fsynced pack followed by one compare-and-swap of the refs: a handful of fsyncs per
batch instead of one per object.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pygit2

from . import _git, canonical, layout
from .errors import InputError, NotFoundError, StoreError
from .policy import Policy, default_policy, parse_policy
from .proposal import Fact, Message, format_time
from .recordindex import Check, ProposalIndex

STORE_MARKER = "memrepo-store.json"
#: 2: two-level fan-out of subjects, messages, conversations, ids, pending, invalid.
#: 3: the revoke-by-message index moved from ``derived/`` to next to each message.
#: 4: a fact's scope and its kind and key are one path component each (``global@default/
#: preference@editor.json``), two folders fewer per fact.
STORE_FORMAT = 4
TENANTS_DIR = "tenants"
GATE_AUTHOR = _git.Author("memrepo gate", "gate@memrepo.invalid")
#: Batches between two fresh repository handles (see :meth:`TenantRepo.staged`).
STAGING_REOPEN = 16
#: Parsed messages a tenant handle keeps (see :meth:`TenantRepo.message`).
MESSAGE_CACHE = 4096
#: Parsed policies by blob id, shared by the tenants of a process: a policy is a function of
#: its bytes alone, parsing and hashing one costs ~1-4 ms, and every new tenant starts on
#: the same default policy blob.
POLICY_CACHE = 64
_POLICIES: dict[_git.Oid, Policy] = {}


def _env_durable() -> bool:
    return os.environ.get("MEMREPO_FSYNC", "1").lower() not in ("0", "false", "no", "off")


@dataclass(frozen=True)
class State:
    """The two tips a decision is made on, and their trees."""

    main: _git.Oid | None
    audit: _git.Oid | None
    main_tree: pygit2.Tree | None
    audit_tree: pygit2.Tree | None


@dataclass(frozen=True)
class Record:
    """A stored proposal record and where it was found."""

    data: dict[str, Any]
    on_main: bool


class Store:
    """A directory of tenant repositories. Cheap to construct; opens repos lazily."""

    def __init__(self, root: str | os.PathLike[str], *, durable: bool | None = None) -> None:
        self.root = Path(root)
        self.durable = _env_durable() if durable is None else durable
        _git.set_durable(self.durable)
        self._tenants: dict[str, TenantRepo] = {}

    # -- store level ---------------------------------------------------------------

    @classmethod
    def init(cls, root: str | os.PathLike[str], *, durable: bool | None = None) -> Store:
        path = Path(root)
        marker = path / STORE_MARKER
        if path.exists() and any(path.iterdir()) and not marker.exists():
            raise StoreError(f"{path} exists and is not a memrepo store", code="not_a_store")
        store = cls(path, durable=durable)
        (path / TENANTS_DIR).mkdir(parents=True, exist_ok=True)
        if not marker.exists():
            tmp = marker.with_suffix(".tmp")
            tmp.write_text(json.dumps({"format": STORE_FORMAT}) + "\n")
            if store.durable:
                with tmp.open("rb+") as handle:
                    os.fsync(handle.fileno())
            os.replace(tmp, marker)
            if store.durable:
                _git.fsync_dir(path)
        return store

    def check(self) -> None:
        marker = self.root / STORE_MARKER
        try:
            found = json.loads(marker.read_text("utf-8")).get("format")
        except FileNotFoundError:
            raise StoreError(
                f"{self.root} is not a memrepo store (run `memrepo --store {self.root} init`)",
                code="not_a_store",
            ) from None
        except (OSError, ValueError, AttributeError) as exc:
            raise StoreError(f"{marker} is unreadable: {exc}", code="not_a_store") from exc
        if found != STORE_FORMAT:
            raise StoreError(f"{self.root} has store format {found}; this memrepo reads format "
                             f"{STORE_FORMAT} (the folder layout changed)", code="store_format")

    def tenant_path(self, tenant_id: str) -> Path:
        return self.root / TENANTS_DIR / layout.tenant_dir(tenant_id)

    def has_tenant(self, tenant_id: str) -> bool:
        return (self.tenant_path(tenant_id) / "HEAD").exists()

    def tenant(self, tenant_id: str, *, create: bool = False) -> TenantRepo:
        cached = self._tenants.get(tenant_id)
        if cached is not None:
            return cached
        self.check()
        path = self.tenant_path(tenant_id)
        if not (path / "HEAD").exists():
            if not create:
                raise NotFoundError(f"no tenant {tenant_id!r} in {self.root}",
                                    code="unknown_tenant")
            repo = TenantRepo.create(path, tenant_id, durable=self.durable)
        else:
            repo = TenantRepo(path, tenant_id, durable=self.durable)
        self._tenants[tenant_id] = repo
        return repo

    def tenants(self) -> list[str]:
        self.check()
        out = []
        for path in sorted((self.root / TENANTS_DIR).glob("*.git")):
            ident = path / "memrepo-tenant"
            if ident.exists():
                out.append(ident.read_text("utf-8"))
        return out


class TenantRepo:
    """One tenant's bare repository.

    ``repo`` is the repository handle to read and write through: the on-disk one, or,
    inside :meth:`staged` and only in the thread running the batch, the batch's staging
    handle (whose new objects are still in memory).
    """

    def __init__(self, path: Path, tenant_id: str, *, durable: bool | None = None) -> None:
        self.path = path
        self.tenant_id = tenant_id
        self.durable = _env_durable() if durable is None else durable
        self._disk = _git.open_repo(path)
        self._local = threading.local()
        self._staging: _git.Staging | None = None
        self._staging_lock = threading.Lock()
        self._batches = 0
        self._messages: dict[_git.Oid, Message] = {}
        self._records = ProposalIndex(path, durable=self.durable)
        # Temp files of writers killed mid-write; only objects/ and objects/pack are scanned.
        _git.clean_temp_files(self._disk)

    @property
    def repo(self) -> pygit2.Repository:
        batch = getattr(self._local, "batch", None)
        return self._disk if batch is None else batch.staging.repo

    @property
    def batch(self) -> Batch | None:
        """The batch this thread is staging on this tenant, if any."""
        return getattr(self._local, "batch", None)

    @classmethod
    def create(cls, path: Path, tenant_id: str, *, policy: Policy | None = None,
               durable: bool | None = None) -> TenantRepo:
        """Build the repository under a private name, then rename it into place.

        A tenant thus appears complete (config, hooks, policy commit) or not at all,
        even if its creator is killed; and concurrent creators never share a
        half-made repository (they used to fail on each other's ``config.lock``, with
        a raw ``GitError``): one rename wins, the others open the winner's.
        """
        durable = _env_durable() if durable is None else durable
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.parent / f".{path.name}.creating-{uuid.uuid4().hex[:12]}"
        try:
            cls._build(tmp, tenant_id, policy or default_policy(), durable)
            try:
                _git.io_point("tenant rename")
                os.rename(tmp, path)
            except OSError:  # another creator's repository is in place already
                if not (path / "HEAD").exists():
                    raise
            if durable:
                _git.fsync_dir(path.parent)
        except OSError as exc:
            raise StoreError(f"cannot create tenant repository {path}: {exc}",
                             code="init_failed") from exc
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        return cls(path, tenant_id, durable=durable)

    @classmethod
    def _build(cls, path: Path, tenant_id: str, policy: Policy, durable: bool) -> None:
        repo = _git.init_bare(path)
        ident = path / "memrepo-tenant"
        ident.write_text(tenant_id, "utf-8")
        config = repo.config
        config["memrepo.tenant"] = tenant_id
        config["core.logAllRefUpdates"] = "always"
        config["receive.denyNonFastForwards"] = "true"
        config["receive.denyDeletes"] = "true"
        from .hooks import install as install_hooks  # hooks imports this module

        install_hooks(path)
        cls(path, tenant_id, durable=durable)._initial_commit(policy)

    def _initial_commit(self, policy: Policy) -> None:
        """The policy commit, written as one pack like any batch (three loose objects and
        their fan-out folders in every new tenant otherwise)."""
        message = (
            f"memrepo: create tenant {self.tenant_id}\n\n"
            f"Policy {policy.name} ({policy.version}) installed.\n\n"
            f"Operator: memrepo init\nPolicy-Version: {policy.version}\n"
        )
        with self.staged() as batch:
            blob = self.blob(policy.to_json())
            self.commit(self.state(), main={layout.POLICY_PATH: blob}, message=message)
            if not batch.publish():
                raise StoreError(f"cannot create tenant {self.tenant_id}: its main moved",
                                 code="init_failed")

    # -- reading -----------------------------------------------------------------

    def state(self) -> State:
        """The tips to decide on: the refs on disk, or the batch's tips inside a batch."""
        batch = self.batch
        if batch is not None:
            return batch.state()
        main = _git.resolve(self.repo, layout.MAIN_REF)
        audit = _git.resolve(self.repo, layout.AUDIT_REF)
        return State(main, audit, _git.tree_of(self.repo, main), _git.tree_of(self.repo, audit))

    def _json(self, tree: pygit2.Tree | None, path: str) -> dict[str, Any] | None:
        data = _git.lookup_blob(self.repo, tree, path)
        return None if data is None else json.loads(data)

    def policy(self, state: State) -> Policy:
        obj = _git.lookup(state.main_tree, layout.POLICY_PATH)
        if not isinstance(obj, pygit2.Blob):
            return default_policy()
        policy = _POLICIES.get(obj.id)
        if policy is None:
            policy = parse_policy(_git.read_blob(self.repo, obj.id))
            if len(_POLICIES) >= POLICY_CACHE:
                _POLICIES.clear()
            _POLICIES[obj.id] = policy
        return policy  # same bytes, same (frozen) Policy

    def _message_blob(self, oid: _git.Oid) -> Message:
        """The message stored in blob ``oid``, parsed once: every decision reads the whole
        conversation of its evidence, and a stored message never changes."""
        msg = self._messages.get(oid)
        if msg is None:
            msg = Message.model_validate(json.loads(_git.read_blob(self.repo, oid)))
            if len(self._messages) >= MESSAGE_CACHE:
                self._messages.clear()
            self._messages[oid] = msg
        return msg

    def message(self, message_id: str, state: State) -> Message | None:
        path = layout.message_path(message_id)
        for tree in (state.main_tree, state.audit_tree):
            obj = _git.lookup(tree, path)
            if obj is not None and obj.type == pygit2.GIT_OBJECT_BLOB:
                msg = self._message_blob(obj.id)
                return msg if msg.message_id == message_id else None
        return None

    def conversation(self, conversation_id: str, state: State) -> list[Message]:
        """Every stored message of a conversation, in time order."""
        obj = _git.lookup(state.audit_tree, layout.conversation_dir(conversation_id))
        if not isinstance(obj, pygit2.Tree):
            return []
        msgs = [self._message_blob(oid) for _, oid in _git.walk_blobs(self.repo, obj)]
        msgs = [m for m in msgs if m.conversation_id == conversation_id]
        return sorted(msgs, key=lambda m: (m.created_at, m.message_id))

    def record(self, proposal_id: str, state: State) -> Record | None:
        """The stored record of a proposalId: committed (main) or parked/rejected (audit).

        Outside a batch the side index (:mod:`memrepo.recordindex`) names the record's
        blob; a batch's commits are not on disk to index, so it walks the trees, as it
        does whenever the index cannot answer, names a record of another proposal or
        knows of none: "never decided" lets a review merge write, so only the trees may
        say it (a row lost to damage would otherwise decide a proposal twice)."""
        path = layout.proposal_path(proposal_id)
        if self.batch is None:
            found = self._records.lookup(self._disk, proposal_id, state.main, state.audit)
            if found is not None and found != (None, None):
                on_main = found[0] is not None
                blob = found[0] if on_main else found[1]
                assert blob is not None
                data = json.loads(_git.read_blob(self._disk, blob))
                if data.get("proposalId") == proposal_id:
                    return Record(data, on_main)
        data = self._json(state.main_tree, path)
        if data is not None:
            return Record(data, True)
        data = self._json(state.audit_tree, path)
        return None if data is None else Record(data, False)

    def refresh_record_index(self, *, verify: bool = False) -> Check | None:
        """Bring the proposal record index to the refs on disk now (maintenance does, so
        that no lookup pays for building it); see :meth:`ProposalIndex.refresh`."""
        main = _git.resolve(self._disk, layout.MAIN_REF)
        audit = _git.resolve(self._disk, layout.AUDIT_REF)
        return self._records.refresh(self._disk, main, audit, verify=verify)

    def fact_at(self, path: str, state: State) -> Fact | None:
        data = self._json(state.main_tree, path)
        return None if data is None else Fact.model_validate(data)

    def derived_paths(self, message_id: str, state: State) -> list[str]:
        """The fact paths derived from a message (its ``.derived`` entries on ``main``)."""
        obj = _git.lookup(state.main_tree, layout.derived_dir(message_id))
        if obj is None:
            return []
        return [_git.read_blob(self.repo, oid).decode()
                for _, oid in _git.walk_blobs(self.repo, obj)]

    def fact_path_of(self, memory_id: str, state: State) -> str | None:
        data = _git.lookup_blob(self.repo, state.main_tree, layout.id_index_path(memory_id))
        return None if data is None else data.decode("utf-8")

    def pending_for(self, memory_id: str, state: State) -> list[dict[str, Any]]:
        obj = _git.lookup(state.audit_tree, layout.pending_dir(memory_id))
        if not isinstance(obj, pygit2.Tree):
            return []
        return self._still_pending(state, obj)

    def _still_pending(self, state: State, tree: pygit2.Tree) -> list[dict[str, Any]]:
        """Pending records, minus any whose proposal already landed on main: a confirm
        killed between its two ref updates (libgit2 moves refs one at a time) leaves
        such a record behind, and it must not be offered or counted again."""
        out = []
        for _, oid in _git.walk_blobs(self.repo, tree):
            record = json.loads(_git.read_blob(self.repo, oid))
            path = layout.proposal_path(record["proposalId"])
            if _git.lookup(state.main_tree, path) is None:
                out.append(record)
        return out

    def all_pending(self, state: State) -> list[dict[str, Any]]:
        obj = _git.lookup(state.audit_tree, "pending")
        if not isinstance(obj, pygit2.Tree):
            return []
        return self._still_pending(state, obj)

    def facts(self, subject_id: str, state: State) -> Iterator[Fact]:
        """Every stored fact version file of a subject (any status)."""
        obj = _git.lookup(state.main_tree, layout.subject_dir(subject_id))
        if not isinstance(obj, pygit2.Tree):
            return
        for _, oid in _git.walk_blobs(self.repo, obj):
            fact = Fact.model_validate(json.loads(_git.read_blob(self.repo, oid)))
            if fact.subject_id == subject_id:
                yield fact

    def all_facts(self, state: State) -> Iterator[tuple[str, Fact]]:
        obj = _git.lookup(state.main_tree, "facts")
        if not isinstance(obj, pygit2.Tree):
            return
        for path, oid in _git.walk_blobs(self.repo, obj, "facts/"):
            yield path, Fact.model_validate(json.loads(_git.read_blob(self.repo, oid)))

    def history(self, path: str, state: State | None = None) -> list[tuple[pygit2.Commit, Fact]]:
        """Every version of the fact at ``path`` with the commit that wrote it, oldest first."""
        state = state or self.state()
        out: list[tuple[pygit2.Commit, Fact]] = []
        for commit in _git.first_parent_chain(self.repo, state.main):
            here = _git.lookup(commit.tree, path)
            if here is None:
                continue
            before = (_git.lookup(commit.parents[0].tree, path) if commit.parent_ids else None)
            if before is None or before.id != here.id:
                data = json.loads(_git.read_blob(self.repo, here.id))
                out.append((commit, Fact.model_validate(data)))
        out.reverse()
        return out

    # -- writing -----------------------------------------------------------------

    def blob(self, value: Any) -> _git.Oid:
        if self.batch is None:
            _git.set_durable(self.durable)  # a loose object: libgit2's process-wide switch
        return _git.write_blob(self.repo, canonical.dumps_pretty(value))

    def commit(
        self,
        state: State,
        *,
        main: Mapping[str, _git.Oid | None] | None = None,
        audit: Mapping[str, _git.Oid | None] | None = None,
        message: str,
        author: _git.Author = GATE_AUTHOR,
        when: datetime | None = None,
    ) -> tuple[_git.Oid | None, _git.Oid | None] | None:
        """Write ``main`` and/or ``audit`` changes as one commit each, published together.

        Returns the new (main, audit) commit ids, or None when either ref moved since
        ``state`` was read (nothing is published then; the objects become garbage). Both
        refs are checked even when only one is written: the decision behind the commit
        read both, so a write to the other one since then invalidates it.

        Inside :meth:`staged` the commits are only staged: they become the batch's new
        tips, and :meth:`Batch.publish` publishes them with the rest of the batch.
        """
        batch = self.batch
        if batch is not None:
            return batch.stage(state, main=main, audit=audit, message=message, author=author,
                               when=when)
        _git.set_durable(self.durable)
        new_main, new_audit = _build_commits(self.repo, state, main, audit, message, author,
                                             when)
        updates = _updates(state, new_main, new_audit)
        if not updates:
            return (state.main, state.audit)
        unchanged = _unchanged(state, updates)
        if not _git.compare_and_swap(self.repo, updates, message=message.splitlines()[0],
                                     verify=unchanged, durable=self.durable):
            return None
        return (new_main or state.main, new_audit or state.audit)

    @contextmanager
    def staged(self) -> Iterator[Batch]:
        """Stage commits in memory, on tips that move with each one, then publish them once.

        Inside the block (in this thread): :meth:`state` returns the batch's tips,
        :meth:`commit` appends to them, and every object written through :attr:`repo`
        stays in memory. :meth:`Batch.publish` then writes all of the batch's objects as
        one pack and moves the refs from the tips the batch started on to its last
        commits with one compare-and-swap. Leaving the block without publishing discards
        everything. Batches on one TenantRepo take turns.
        """
        if self.batch is not None:
            raise StoreError("a batch is already being staged on this tenant in this thread",
                             code="nested_batch")
        with self._staging_lock:
            self._batches += 1
            if self._staging is None or self._batches % STAGING_REOPEN == 0:
                # libgit2 keeps every pack it ever listed, also those a repack deleted,
                # and searches them all on every object read: fresh handles (the parsed
                # trees are content-addressed: they stay valid)
                old = self._staging
                self._staging = _git.open_staging(self.path)
                if old is not None:
                    self._staging.memory.trees = old.memory.trees
                if self._batches > 1:
                    self._disk = _git.open_repo(self.path)
            staging = self._staging
            staging.objects.clear()
            batch = Batch(self, staging, self.state())
            self._local.batch = batch
            try:
                yield batch
            finally:
                self._local.batch = None
                staging.objects.clear()

    def ingest(self, messages: Sequence[Message]) -> list[str]:
        """Store messages immutably on the audit ref. Re-ingesting identical ones is a no-op;
        a different message under an existing id is refused (evidence must not change).

        The messages are one commit, staged and published like a gate batch, and taken in
        turn with the gate's batches (:func:`memrepo.groupcommit.exclusive`) so that an
        ingest never makes a batch of decisions lose its compare-and-swap. Inside a batch
        already being staged, the commit joins that batch.
        """
        from . import groupcommit  # groupcommit reads tenants through this module

        for msg in messages:
            if msg.tenant_id != self.tenant_id:
                raise InputError(f"message {msg.message_id} belongs to tenant {msg.tenant_id!r},"
                                 f" not {self.tenant_id!r}", code="cross_tenant")
        if self.batch is not None:
            stored = self._ingest_once(messages)
            return stored or []
        with groupcommit.exclusive(self.path):
            while True:
                with self.staged() as batch:
                    stored = self._ingest_once(messages)
                    if stored is None:
                        return []
                    if batch.publish():
                        return stored

    def _ingest_once(self, messages: Sequence[Message]) -> list[str] | None:
        state = self.state()
        changes: dict[str, _git.Oid | None] = {}
        stored: list[str] = []
        for msg in messages:
            existing = self.message(msg.message_id, state)
            if existing is not None:
                if existing != msg:
                    raise InputError(
                        f"message {msg.message_id} is already stored with other content;"
                        " stored messages are immutable", code="message_changed")
                continue
            blob = self.blob(msg.to_json())
            changes[layout.message_path(msg.message_id)] = blob
            changes[layout.conversation_message_path(msg.conversation_id,
                                                     msg.message_id)] = blob
            stored.append(msg.message_id)
        if not changes:
            return None
        done = self.commit(state, audit=changes,
                           message=f"ingest: {len(stored)} message(s)\n\n"
                                   f"Operator: ingest\nMessages: {len(stored)}\n")
        if done is None:
            raise StoreError("a staged ingest was refused", code="batch_inconsistent")
        return stored


class Batch:
    """Commits staged in memory on one tenant (see :meth:`TenantRepo.staged`)."""

    def __init__(self, tenant: TenantRepo, staging: _git.Staging, base: State) -> None:
        self.tenant = tenant
        self.staging = staging
        self.base = base
        self.main = base.main
        self.audit = base.audit
        self.commits = 0
        self.published = False

    def state(self) -> State:
        repo = self.staging.repo
        return State(self.main, self.audit, _git.tree_of(repo, self.main),
                     _git.tree_of(repo, self.audit))

    def stage(self, state: State, *, main: Mapping[str, _git.Oid | None] | None,
              audit: Mapping[str, _git.Oid | None] | None, message: str,
              author: _git.Author, when: datetime | None,
              ) -> tuple[_git.Oid | None, _git.Oid | None] | None:
        """Append a commit on each written ref, on the batch's tips; None if ``state`` is
        not those tips (a decision made on something else must be made again)."""
        if (state.main, state.audit) != (self.main, self.audit):
            return None
        new_main, new_audit = _build_commits(self.staging.repo, state, main, audit, message,
                                             author, when)
        self.main = new_main or self.main
        self.audit = new_audit or self.audit
        self.commits += (new_main is not None) + (new_audit is not None)
        return (self.main, self.audit)

    def publish(self, *, durable: bool | None = None) -> bool:
        """Write the batch's objects as one pack and move the refs with one compare-and-swap.

        False when a ref moved since the batch began (nothing is published then; decide
        again on the new tips). ``durable`` defaults to the tenant's setting: the pack,
        its index, the refs and their directories are fsynced before this returns True.
        Raises StoreError when the disk refuses a write; nothing new is on ``main`` then.
        """
        updates = _updates(self.base, self.main if self.main != self.base.main else None,
                           self.audit if self.audit != self.base.audit else None)
        if not updates:
            self.published = True
            return True
        return self._write_and_swap(updates, verify=_unchanged(self.base, updates),
                                    message=f"memrepo: {self.commits} commit(s)",
                                    durable=durable)

    def publish_refs(self, refs: Mapping[str, tuple[_git.Oid | None, _git.Oid]], *,
                     durable: bool | None = None) -> bool:
        """Publish as :meth:`publish` does, moving ``refs`` instead of ``main`` and the
        audit ref: how commits staged for another ref (a review branch) are written. The
        batch must not have moved those two. False when one of ``refs`` is not at its
        expected old value."""
        if (self.main, self.audit) != (self.base.main, self.base.audit):
            raise StoreError("publish_refs is for batches that leave main and the audit "
                             "ref alone", code="batch_inconsistent")
        return self._write_and_swap(refs, verify={}, message=f"memrepo: {len(refs)} ref(s)",
                                    durable=durable)

    def _write_and_swap(self, updates: Mapping[str, tuple[_git.Oid | None, _git.Oid]], *,
                        verify: Mapping[str, _git.Oid | None], message: str,
                        durable: bool | None) -> bool:
        """The batch's objects as one pack, then one compare-and-swap of ``updates``."""
        durable = self.tenant.durable if durable is None else durable
        _git.write_pack(_git.pack_dir(self.tenant._disk), self.staging.objects,
                        durable=durable)
        self.staging.objects.clear()
        if not _git.compare_and_swap(self.tenant._disk, updates, message=message,
                                     verify=verify, durable=durable):
            return False
        self.published = True
        from . import maintenance  # maintenance runs git on tenants of this module

        maintenance.after_publish(self.tenant)
        return True


def _build_commits(repo: pygit2.Repository, state: State,
                   main: Mapping[str, _git.Oid | None] | None,
                   audit: Mapping[str, _git.Oid | None] | None, message: str,
                   author: _git.Author, when: datetime | None,
                   ) -> tuple[_git.Oid | None, _git.Oid | None]:
    stamp = int((when or datetime.now(UTC)).timestamp())
    new_main = new_audit = None
    if main:
        tree = _git.edit_tree(repo, state.main_tree, main)
        parents = [state.main] if state.main is not None else []
        new_main = _git.create_commit(repo, tree=tree, parents=parents, message=message,
                                      author=author, when=stamp)
    if audit:
        tree = _git.edit_tree(repo, state.audit_tree, audit)
        parents = [state.audit] if state.audit is not None else []
        new_audit = _git.create_commit(repo, tree=tree, parents=parents, message=message,
                                       author=author, when=stamp)
    return new_main, new_audit


def _updates(state: State, new_main: _git.Oid | None, new_audit: _git.Oid | None
             ) -> dict[str, tuple[_git.Oid | None, _git.Oid]]:
    """The ref moves, the audit ref first and ``main`` last: should writing ``main`` fail,
    nothing is on ``main`` that its writer was not told about."""
    updates: dict[str, tuple[_git.Oid | None, _git.Oid]] = {}
    if new_audit is not None:
        updates[layout.AUDIT_REF] = (state.audit, new_audit)
    if new_main is not None:
        updates[layout.MAIN_REF] = (state.main, new_main)
    return updates


def _unchanged(state: State, updates: Mapping[str, Any]) -> dict[str, _git.Oid | None]:
    return {ref: tip for ref, tip in ((layout.MAIN_REF, state.main),
                                      (layout.AUDIT_REF, state.audit)) if ref not in updates}


def now_utc() -> datetime:
    return datetime.now(UTC)


def stamp(moment: datetime) -> str:
    return format_time(moment)
