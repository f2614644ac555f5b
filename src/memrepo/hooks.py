"""Git hooks for tenant repositories: install them, and judge what plain git brings in.

People may clone a tenant repository, look at it, and push to it with ordinary git.
They must not be able to put anything on ``main`` that the gate would not have put
there. The ``pre-receive`` hook therefore re-checks every pushed commit the way the
gate wrote it: the trailers, the exact set of files a commit of its kind touches, the
canonical bytes of each file, the payloadHash against the stored proposal, the stored
proposal record and source message, secrets and deny-tier keys, and finally the
decision itself: the stored proposal is run through :func:`memrepo.gate.assess` with
the policy of the commit's parent, and must come out COMMIT (or carry an approval
bound to its payloadHash, as a confirmation or a reviewed merge does).

``post-receive`` (and ``post-commit`` in a repository with a work tree) nudges the
consumers of ``main`` (see :func:`notify`), so a ``git push`` is projected the same way
as a library commit.

Installing never clobbers a hook that was already there: a foreign hook is kept as
``<name>.user`` (or, if that name is taken, moved into ``<name>.d/``), and the memrepo
hook runs it, and every executable in ``<name>.d/``, with the same arguments and
standard input. The installed script bakes in the Python that installed it, so a push
works without memrepo on ``PATH``.

Commit kinds on ``main`` and what is checked for each live in :data:`COMMIT_CHECKS`
(root, gate, admin, revoke, renew, restore, policy); a new kind of lifecycle commit
needs an entry there, or pushes of it are refused. Other refs are not guarded except
the audit ref, which may only move forward and never change a stored message.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygit2

from . import _git, canonical, layout, secrets
from .errors import InputError, MemrepoError, StoreError
from .policy import Policy, effective_expiry, parse_policy
from .proposal import (
    DecisionKind,
    Fact,
    FactSource,
    FactStatus,
    MemoryProposal,
    Message,
    format_time,
    parse_time,
)
from .store import State, TenantRepo

#: Hooks memrepo installs. ``post-commit`` only matters where there is a work tree.
HOOK_NAMES = ("pre-receive", "post-receive", "post-commit")
#: The line that marks a hook file as ours (safe to overwrite on reinstall).
MARKER = "memrepo-managed-hook"
#: Written (atomically replaced) in the git dir whenever commits arrive through git.
NUDGE_FILE = "memrepo-nudge"
ZERO_OID = "0" * 40

_TEMPLATE = """#!/bin/sh
# {marker}: written by `memrepo hooks install`; re-run it instead of editing this file.
#
# Runs memrepo's @HOOK@ step, then any hook that was here before: that script is kept
# as @HOOK@.user beside this one, and every executable in @HOOK@.d/ runs too, in name
# order, each with the same arguments and standard input (after a refusal by memrepo's
# pre-receive check, none of them runs). The Python below was recorded at install
# time; run the installer again after moving the environment.
exec @PYTHON@ -m memrepo hook @HOOK@ "$@"
""".replace("{marker}", MARKER)


# -- installing ----------------------------------------------------------------------


def template(name: str) -> str:
    """The hook script for ``name`` with ``@PYTHON@`` still to fill in.

    Read from the project's ``hooks/`` directory when running from a checkout (that
    directory is what people read and review); the same text is built in for installs
    without it, and a test keeps the two identical.
    """
    if name not in HOOK_NAMES:
        raise InputError(f"memrepo has no {name!r} hook", code="unknown_hook")
    shipped = Path(__file__).resolve().parents[2] / "hooks" / name
    if shipped.is_file():
        return shipped.read_text("utf-8")
    return _TEMPLATE.replace("@HOOK@", name)


def render(name: str, python: str) -> str:
    return template(name).replace("@PYTHON@", shlex.quote(python))


def hooks_dir(repo_path: Path) -> Path:
    """Where git looks for this repository's hooks (``core.hooksPath`` respected)."""
    repo = _git.open_repo(repo_path)
    configured = None
    try:
        configured = repo.config["core.hooksPath"]
    except KeyError:
        pass
    git_dir = Path(repo.path)
    if configured:
        base = git_dir if repo.is_bare else Path(repo.workdir or git_dir)
        return (base / os.path.expanduser(configured)).resolve()
    return git_dir / "hooks"


@dataclass(frozen=True)
class Installed:
    """What :func:`install` did in one repository."""

    repo: Path
    written: tuple[str, ...]
    kept: tuple[tuple[str, str], ...]   # (hook, where the previous hook now lives)


def install(repo_path: str | os.PathLike[str], *, python: str | None = None,
            tenant_id: str | None = None) -> Installed:
    """Install memrepo's hooks into one repository, keeping any hook already there.

    ``tenant_id`` is recorded as ``memrepo.tenant`` (the pre-receive check needs to
    know whose repository it guards); tenant repositories have it already.
    """
    path = Path(repo_path)
    repo = _git.open_repo(path)
    if tenant_id is not None:
        repo.config["memrepo.tenant"] = tenant_id
    directory = hooks_dir(path)
    directory.mkdir(parents=True, exist_ok=True)
    names = [n for n in HOOK_NAMES if not (n == "post-commit" and repo.is_bare)]
    exe = python or sys.executable
    written: list[str] = []
    kept: list[tuple[str, str]] = []
    for name in names:
        target = directory / name
        if target.exists() and not _is_ours(target):
            kept.append((name, str(_keep_user_hook(target))))
        text = render(name, exe)
        if target.exists() and target.read_text("utf-8", "replace") == text:
            continue
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".memrepo-tmp", dir=directory)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(tmp, 0o755)
        os.replace(tmp, target)  # concurrent installers each replace atomically
        written.append(name)
    return Installed(path, tuple(written), tuple(kept))


def _is_ours(path: Path) -> bool:
    try:
        head = path.read_bytes()[:512]
    except OSError:
        return False
    return MARKER.encode() in head


def _keep_user_hook(path: Path) -> Path:
    """Move a foreign hook aside where the memrepo hook will still run it."""
    user = path.with_name(path.name + ".user")
    if not user.exists():
        os.replace(path, user)
        return user
    chain = path.with_name(path.name + ".d")
    chain.mkdir(exist_ok=True)
    n = 0
    while (chain / f"{n:02d}-previous").exists():
        n += 1
    dest = chain / f"{n:02d}-previous"
    os.replace(path, dest)
    return dest


def chained_hooks(directory: Path, name: str) -> list[Path]:
    """The user's hooks that run after memrepo's: ``<name>.user`` then ``<name>.d/*``."""
    out = []
    user = directory / f"{name}.user"
    if user.is_file() and os.access(user, os.X_OK):
        out.append(user)
    chain = directory / f"{name}.d"
    if chain.is_dir():
        out += [p for p in sorted(chain.iterdir()) if p.is_file() and os.access(p, os.X_OK)]
    return out


def run_chained(directory: Path, name: str, args: Sequence[str], stdin: bytes) -> int:
    """Run the user's hooks in order; the first non-zero exit code wins (0 if none)."""
    code = 0
    for hook in chained_hooks(directory, name):
        done = subprocess.run([str(hook), *args], input=stdin, check=False)
        if done.returncode and not code:
            code = done.returncode
    return code


# -- nudging consumers ------------------------------------------------------------------


@dataclass(frozen=True)
class RefUpdate:
    """One line of a pre-/post-receive hook's input (None: the ref is absent)."""

    old: str | None
    new: str | None
    ref: str

    def to_json(self) -> dict[str, Any]:
        return {"old": self.old, "new": self.new, "ref": self.ref}


def parse_updates(text: str) -> list[RefUpdate]:
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        old, new, ref = parts
        out.append(RefUpdate(None if set(old) == {"0"} else old,
                             None if set(new) == {"0"} else new, ref))
    return out


#: Called by :func:`notify` after the nudge file is written: ``(repo_path, updates)``.
#: ``memrepo.events`` may provide ``on_refs_updated`` instead; both are optional.
NOTIFY_CALLBACKS: list[Callable[[Path, Sequence[RefUpdate]], None]] = []


def notify(repo_path: str | os.PathLike[str], updates: Sequence[RefUpdate]) -> list[str]:
    """Tell consumers that refs moved outside the library; returns problems (never raises).

    Writes ``<git dir>/memrepo-nudge`` (JSON: the updates and a time), which a consumer
    can poll by mtime, then calls ``memrepo.events.on_refs_updated(repo_path, updates)``
    if that module provides it, then every function in :data:`NOTIFY_CALLBACKS`.
    """
    path = Path(repo_path)
    problems: list[str] = []
    body = {"at": format_time(_now()), "updates": [u.to_json() for u in updates]}
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{NUDGE_FILE}.", dir=path)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(json.dumps(body) + "\n")
        os.replace(tmp, path / NUDGE_FILE)
    except OSError as exc:
        problems.append(f"cannot write {path / NUDGE_FILE}: {exc.strerror}")
    callbacks = list(NOTIFY_CALLBACKS)
    events_hook = _events_entry_point()
    if events_hook is not None:
        callbacks.insert(0, events_hook)
    for callback in callbacks:
        try:
            callback(path, updates)
        except Exception as exc:  # a consumer's failure must not hide the others
            problems.append(f"{getattr(callback, '__qualname__', callback)}: "
                            f"{type(exc).__name__}: {exc}")
    return problems


def _events_entry_point() -> Callable[[Path, Sequence[RefUpdate]], None] | None:
    import importlib.util

    if importlib.util.find_spec("memrepo.events") is None:
        return None
    from . import events

    return getattr(events, "on_refs_updated", None)


def _now() -> Any:
    from .store import now_utc

    return now_utc()


# -- the pre-receive check ----------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """Why a pushed ref update is refused, naming the commit at fault."""

    ref: str
    commit: str | None
    reason: str

    def __str__(self) -> str:
        where = f"commit {self.commit}: " if self.commit else ""
        return f"memrepo: refusing {self.ref}: {where}{self.reason}"


class _Refuse(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def repo_tenant(repo: pygit2.Repository) -> str | None:
    try:
        return str(repo.config["memrepo.tenant"])
    except KeyError:
        pass
    ident = Path(repo.path) / "memrepo-tenant"
    return ident.read_text("utf-8") if ident.is_file() else None


def check_push(repo_path: str | os.PathLike[str], updates: Iterable[RefUpdate], *,
               object_dirs: Sequence[str] = ()) -> list[Refusal]:
    """Everything wrong with a push, one refusal per refused ref (empty: accept it).

    ``object_dirs`` are extra object directories to read (git's quarantine directory
    during pre-receive). ``main`` is checked commit by commit; the audit ref may only
    move forward and never change or drop a stored message; other refs (review
    branches, consumer positions, approvals, tags) are not guarded.
    """
    repo = _git.open_repo(Path(repo_path))
    tenant_id = repo_tenant(repo)
    refusals: list[Refusal] = []
    for u in updates:
        if u.ref not in (layout.MAIN_REF, layout.AUDIT_REF):
            continue
        if tenant_id is None:
            refusals.append(Refusal(u.ref, None, "this repository has no memrepo.tenant; run "
                                    "`memrepo hooks install --repo PATH --tenant T`"))
            continue
        tenant = TenantRepo(Path(repo_path), tenant_id)
        for directory in object_dirs:
            _git.add_object_dir(tenant.repo, directory)
        if u.ref == layout.MAIN_REF:
            refusals += check_history(tenant, u.old, u.new)
            continue
        try:
            _check_audit_update(tenant, u.old, u.new)
        except _Refuse as exc:
            refusals.append(Refusal(u.ref, None, exc.reason))
    return refusals


def check_history(tenant: TenantRepo, old: str | None, new: str | None, *,
                  ref: str = layout.MAIN_REF) -> list[Refusal]:
    """Refusals for moving ``ref`` (main, or a review branch) from ``old`` to ``new``:
    a deletion, a non-fast-forward, or the first commit that fails :func:`check_commit`.
    """
    try:
        return _check_history(tenant, old, new, ref)
    except _Refuse as exc:
        return [Refusal(ref, None, exc.reason)]


def _check_history(tenant: TenantRepo, old: str | None, new: str | None,
                   ref: str) -> list[Refusal]:
    repo = tenant.repo
    if new is None:
        raise _Refuse(f"deleting {ref} is not allowed; memory history is append-only")
    new_id = _git.to_oid(new)
    if new_id is None or _git.commit_of(repo, new_id) is None:
        raise _Refuse(f"{new} is not a commit")
    old_id = _git.to_oid(old) if old is not None else None
    if old_id is not None and not _git.is_ancestor(repo, old_id, new_id):
        raise _Refuse(f"non-fast-forward update of {ref} ({old[:12] if old else ''} is not "
                      f"an ancestor of {new[:12]}); history is append-only, so a rewrite "
                      "or force-push is refused")
    commits = list(_git.first_parent_chain(repo, new_id, old_id))
    commits.reverse()
    audit = _git.resolve(repo, layout.AUDIT_REF)
    audit_tree = _git.tree_of(repo, audit)
    for commit in commits:
        try:
            check_commit(tenant, commit, audit=audit, audit_tree=audit_tree)
        except _Refuse as exc:
            return [Refusal(ref, str(commit.id), exc.reason)]
        except (MemrepoError, ValueError, KeyError, TypeError) as exc:
            return [Refusal(ref, str(commit.id), f"cannot be checked: {exc}")]
    return []


def _check_audit_update(tenant: TenantRepo, old: str | None, new: str | None) -> None:
    repo = tenant.repo
    if new is None:
        raise _Refuse("deleting the audit ref is not allowed")
    new_id = _git.to_oid(new)
    if new_id is None or _git.commit_of(repo, new_id) is None:
        raise _Refuse(f"{new} is not a commit")
    old_id = _git.to_oid(old) if old is not None else None
    if old_id is None:
        return
    if not _git.is_ancestor(repo, old_id, new_id):
        raise _Refuse("non-fast-forward update of the audit ref is not allowed")
    for change in _git.changed_entries(repo, _git.tree_of(repo, old_id),
                                       _git.tree_of(repo, new_id)):
        if change.path.startswith(("messages/", "conversations/")) and change.old is not None:
            raise _Refuse(f"stored message {change.path} would be changed or removed; "
                          "stored messages are immutable")


# -- one commit -----------------------------------------------------------------------


@dataclass
class CommitContext:
    """One pushed commit, its parent's state and what it changed, for the checkers."""

    tenant: TenantRepo
    commit: pygit2.Commit
    state: State                      # main = the parent, audit = the repository's now
    pairs: list[tuple[str, str]]
    trailers: dict[str, str]
    changes: dict[str, _git.Change]
    _policy: Policy | None = field(default=None, repr=False)

    @property
    def tree(self) -> pygit2.Tree:
        return self.commit.tree

    @property
    def policy(self) -> Policy:
        if self._policy is None:
            self._policy = self.tenant.policy(self.state)
        return self._policy

    def require(self, *names: str) -> None:
        missing = [n for n in names if not self.trailers.get(n)]
        if missing:
            raise _Refuse(f"missing trailer(s) {', '.join(missing)}; commits on main are "
                          "written by the memrepo gate or its lifecycle commands")

    def blob(self, path: str) -> bytes | None:
        return _git.lookup_blob(self.tenant.repo, self.tree, path)

    def json_file(self, path: str, what: str) -> Any:
        """The JSON at ``path`` in this commit, which must be in canonical form."""
        data = self.blob(path)
        if data is None:
            raise _Refuse(f"{what} {path} is missing")
        try:
            value = canonical.loads_strict(data)
        except InputError as exc:
            raise _Refuse(f"{what} {path} is not valid JSON: {exc.message}") from None
        if canonical.dumps_pretty(value) != data:
            raise _Refuse(f"{what} {path} is not in canonical form (re-rendering it with "
                          "canonical.dumps_pretty gives different bytes)")
        return value

    def parent_fact(self, path: str) -> Fact | None:
        return self.tenant.fact_at(path, self.state)

    def only(self, allowed: Iterable[str], required: Iterable[str] = ()) -> None:
        allowed_set = set(allowed)
        for path in sorted(self.changes):
            if path not in allowed_set:
                raise _Refuse(f"unexpected change to {path} for a "
                              f"{self.trailers.get('Op', '?')} commit")
        for path in required:
            if path not in self.changes:
                raise _Refuse(f"{path} should change in this commit but does not")

    def check_policy_version(self) -> None:
        claimed = self.trailers.get("Policy-Version")
        if claimed != self.policy.version:
            raise _Refuse(f"Policy-Version {claimed} is not the parent's policy "
                          f"{self.policy.version}")


Checker = Callable[[CommitContext], None]


def check_commit(tenant: TenantRepo, commit: pygit2.Commit, *, audit: _git.Oid | None = None,
                 audit_tree: pygit2.Tree | None = None) -> None:
    """Raise :class:`_Refuse` unless ``commit`` is a change the gate (or a lifecycle
    command) would have made on top of its parent."""
    if len(commit.parent_ids) > 1:
        raise _Refuse("merge commits are not allowed on main; history is linear "
                      "(merge a review with `memrepo review merge`)")
    parent = commit.parent_ids[0] if commit.parent_ids else None
    parent_tree = _git.tree_of(tenant.repo, parent)
    state = State(parent, audit, parent_tree, audit_tree)
    changes: dict[str, _git.Change] = {}
    for c in _git.changed_entries(tenant.repo, parent_tree, commit.tree):
        seen_before = changes.get(c.path)  # a type change comes as a deletion plus an addition
        if seen_before is not None:
            c = _git.Change(c.path, seen_before.old or c.old, c.new or seen_before.new,
                            c.new_mode if c.new is not None else seen_before.new_mode)
        changes[c.path] = c
    for c in changes.values():
        if c.new is not None and c.new_mode != _git.BLOB:
            raise _Refuse(f"{c.path} is not a regular file (mode {c.new_mode:o})")
    if not changes:
        raise _Refuse("the commit changes nothing")
    pairs = _git.trailer_lines(commit.message)
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen and key != "Memory-Id":
            raise _Refuse(f"trailer {key} appears more than once")
        seen.add(key)
    ctx = CommitContext(tenant, commit, state, pairs, dict(pairs), changes)
    kind = commit_kind(ctx.trailers, root=parent is None)
    checker = COMMIT_CHECKS.get(kind)
    if checker is None:
        raise _Refuse(f"not a memrepo commit (kind {kind!r}); every change to main must "
                      "come from the gate, a lifecycle command or `memrepo review merge`")
    checker(ctx)


def commit_kind(trailers: Mapping[str, str], *, root: bool = False) -> str:
    """Which checker judges a commit: by its Decision, then its Op trailer."""
    if root:
        return "root"
    decision, op = trailers.get("Decision"), trailers.get("Op") or "unknown"
    if decision == DecisionKind.COMMIT.value:
        return "renew" if op == "renew" else "gate"
    if decision == "ADMIN_EDIT":
        return "admin"
    return op


class _PushedView(TenantRepo):
    """A tenant whose parent state also sees the source message of the pushed commit.

    The gate reads the message from the store; in a pushed commit it arrives with the
    commit itself, so the view adds it (and to its conversation, whose earlier turns
    come from the repository's audit ref as it is now). Pending proposals are not
    consulted: they are the state of the store that made the commit, not of this one.
    """

    def __init__(self, base: TenantRepo, extra: Message) -> None:
        self.__dict__.update(base.__dict__)  # same repository, caches and all
        self._extra = extra

    def message(self, message_id: str, state: State) -> Message | None:
        if message_id == self._extra.message_id:
            return self._extra
        return super().message(message_id, state)

    def conversation(self, conversation_id: str, state: State) -> list[Message]:
        msgs = [m for m in super().conversation(conversation_id, state)
                if m.message_id != self._extra.message_id]
        if self._extra.conversation_id == conversation_id:
            msgs.append(self._extra)
        return sorted(msgs, key=lambda m: (m.created_at, m.message_id))

    def pending_for(self, memory_id: str, state: State) -> list[dict[str, Any]]:
        return []


GATE_TRAILERS = ("Proposal-Id", "Payload-Hash", "Memory-Id", "Fact-Version", "Op", "Decision",
                 "Policy-Version", "Operator", "Tenant-Id", "Subject-Id", "Source-Message",
                 "Conversation-Id")


def _check_gate(ctx: CommitContext) -> None:
    from . import gate  # gate imports analysis; keep installing hooks light

    ctx.require(*GATE_TRAILERS)
    t = ctx.trailers
    if t["Op"] not in ("create", "update"):
        raise _Refuse(f"a gate commit has Op create or update, not {t['Op']!r}")
    pid = t["Proposal-Id"]
    try:
        record_path = layout.proposal_path(pid)
    except ValueError:
        raise _Refuse(f"Proposal-Id {pid!r} is not a proposal id") from None
    record = ctx.json_file(record_path, "proposal record")
    try:
        proposal = MemoryProposal.model_validate(record["proposal"])
    except (KeyError, TypeError, ValueError) as exc:
        raise _Refuse(f"the stored proposal in {record_path} does not validate: "
                      f"{str(exc).splitlines()[0]}") from None
    if proposal.id != pid or record.get("proposalId") != pid:
        raise _Refuse(f"proposal record {record_path} is not the record of {pid}")
    ph = proposal.payload_hash
    if t["Payload-Hash"] != ph or record.get("payloadHash") != ph:
        raise _Refuse(f"Payload-Hash does not match the stored proposal's payload ({ph})")
    if proposal.tenant_id != ctx.tenant.tenant_id or t["Tenant-Id"] != proposal.tenant_id:
        raise _Refuse(f"proposal belongs to tenant {proposal.tenant_id!r}, this repository "
                      f"to {ctx.tenant.tenant_id!r}")
    scope = proposal.scope.as_dict()
    path = layout.fact_path(proposal.subject_id, scope, proposal.kind, proposal.normalized_key)
    mid = layout.memory_id(proposal.tenant_id, proposal.subject_id, scope, proposal.kind,
                           proposal.normalized_key)
    # The files a gate commit writes, and no others; a proposal decides only once.
    if _git.lookup(ctx.state.main_tree, record_path) is not None:
        raise _Refuse(f"proposal {pid} is already on main in the parent (a replayed commit)")
    msg_path = layout.message_path(t["Source-Message"])
    allowed_paths = {path, record_path, msg_path,
                     layout.derived_path(t["Source-Message"], mid)}
    if ctx.parent_fact(path) is None:
        allowed_paths.add(layout.id_index_path(mid))
    ctx.only(allowed_paths, required=(path, record_path))
    fact = _fact_file(ctx, path)
    expected_hash = canonical.payload_hash(
        value=fact.value, confidence=fact.confidence if fact.confidence is not None else -1,
        expires_at=proposal.expires_at,
        evidence_hash=fact.evidence.sha256 if fact.evidence else "")
    if fact.payload_hash != ph or expected_hash != ph:
        raise _Refuse(f"fact {path}: payloadHash does not match the fact's value, confidence, "
                      "expiry and evidence")
    try:
        message = Message.model_validate(ctx.json_file(msg_path, "source message"))
    except ValueError as exc:
        raise _Refuse(f"source message {msg_path} does not validate: "
                      f"{str(exc).splitlines()[0]}") from None
    if not message.message_id == t["Source-Message"] == proposal.evidence.message_id:
        raise _Refuse("Source-Message does not name the proposal's evidence message")
    if t["Conversation-Id"] != message.conversation_id:
        raise _Refuse("Conversation-Id does not match the source message")
    stored = ctx.tenant.message(message.message_id, ctx.state)
    if stored is not None and stored != message:
        raise _Refuse(f"source message {message.message_id} differs from the stored one")
    _refuse_secret_or_denied(ctx, proposal.kind, proposal.normalized_key, fact.value)
    ctx.check_policy_version()

    now = parse_time(str(record.get("decidedAt")))
    view = _PushedView(ctx.tenant, message)
    a = gate.assess(view, ctx.state, proposal, now, policy=ctx.policy)
    approval = record.get("approval")
    approved_by = t.get("Approved-By")
    if approval is not None:
        if not isinstance(approval, dict) or approval.get("payloadHash") != ph \
                or not approved_by or approval.get("approvedBy") != approved_by:
            raise _Refuse("the approval in the proposal record does not bind this payloadHash "
                          "and the Approved-By trailer")
        allowed = a.verdict.decision is not DecisionKind.REJECT
    else:
        if approved_by:
            raise _Refuse("Approved-By trailer without an approval in the proposal record")
        allowed = a.verdict.decision is DecisionKind.COMMIT
    if not allowed:
        raise _Refuse(f"the gate would not have committed this proposal on its parent: "
                      f"{a.verdict.decision.value} ({', '.join(a.verdict.reasons)})")

    current = a.current
    version = current.version + 1 if current is not None else 1
    stamp = fact.updated_at
    if format_time(parse_time(stamp)) != stamp or stamp != record.get("decidedAt"):
        raise _Refuse(f"fact {path}: updatedAt {stamp!r} is not the decision time")
    expected = Fact(
        memory_id=mid, version=version, frozen=False, tenant_id=proposal.tenant_id,
        subject_id=proposal.subject_id, scope=proposal.scope, kind=proposal.kind,
        normalized_key=proposal.normalized_key, value=proposal.value,
        source=FactSource.USER_EXPLICIT if a.analysis is not None and a.analysis.explicit
        else FactSource.SYSTEM_INFERRED,
        evidence=proposal.evidence, derived_from=(proposal.evidence.message_id,),
        supersedes=current.version if current is not None else None,
        proposal_id=pid, payload_hash=ph, confidence=proposal.confidence,
        created_at=current.created_at if current is not None else stamp, updated_at=stamp,
        expires_at=effective_expiry(ctx.policy, proposal.kind, proposal.normalized_key,
                                    proposal.expires_at, now),
        operator=t["Operator"], approved_by=approved_by,
    )
    _same_fact(path, fact, expected)
    want = {
        "decision": DecisionKind.COMMIT.value, "status": "committed", "memoryId": mid,
        "factPath": path, "version": version, "policyVersion": ctx.policy.version,
        "evidenceQuote": a.quote, "conversationId": message.conversation_id,
        "base": None if current is None else {
            "version": current.version, "payloadHash": current.payload_hash,
            "value": current.value, "status": current.status.value},
    }
    for key, value in want.items():
        if record.get(key) != value:
            raise _Refuse(f"proposal record field {key!r} is {record.get(key)!r}, "
                          f"the gate would have written {value!r}")
    expected_trailers = _git.trailer_lines(gate.trailers(
        a, decision=DecisionKind.COMMIT, operator=t["Operator"], version=version,
        approved_by=approved_by))
    for key, value in expected_trailers:
        if t.get(key) != value:
            raise _Refuse(f"trailer {key} is {t.get(key)!r}, the gate would have written "
                          f"{value!r}")
    _index_blob(ctx, layout.derived_path(message.message_id, mid), path)
    if current is None:
        _index_blob(ctx, layout.id_index_path(mid), path)


def _fact_file(ctx: CommitContext, path: str, *, single: bool = True) -> Fact:
    """The fact file at ``path``: canonical, valid, at its own path, and (for a one-fact
    commit) the one the Memory-Id and Fact-Version trailers name."""
    data = ctx.json_file(path, "fact file")
    try:
        fact = Fact.model_validate(data)
    except ValueError as exc:
        raise _Refuse(f"fact file {path} does not validate: {str(exc).splitlines()[0]}") from None
    if fact.tenant_id != ctx.tenant.tenant_id:
        raise _Refuse(f"fact {path} names tenant {fact.tenant_id!r}")
    scope = fact.scope.as_dict()
    if layout.fact_path(fact.subject_id, scope, fact.kind, fact.normalized_key) != path:
        raise _Refuse(f"fact {path} is not at the path its identity gives")
    mid = layout.memory_id(fact.tenant_id, fact.subject_id, scope, fact.kind,
                           fact.normalized_key)
    if fact.memory_id != mid:
        raise _Refuse(f"fact {path}: memoryId {fact.memory_id} is not {mid}")
    if single and ctx.trailers.get("Memory-Id") != mid:
        raise _Refuse(f"Memory-Id trailer does not match fact {path}")
    if single and ctx.trailers.get("Fact-Version") != str(fact.version):
        raise _Refuse(f"Fact-Version trailer does not match fact {path} (v{fact.version})")
    return fact


def _same_fact(path: str, got: Fact, expected: Fact) -> None:
    g, e = got.to_json(), expected.to_json()
    for key in e:
        if g.get(key) != e[key]:
            raise _Refuse(f"fact {path}: {key} is {g.get(key)!r}, the gate would have "
                          f"written {e[key]!r}")


def _index_blob(ctx: CommitContext, index_path: str, fact_path: str) -> None:
    if ctx.blob(index_path) != fact_path.encode():
        raise _Refuse(f"index {index_path} does not point at {fact_path}")


def _refuse_secret_or_denied(ctx: CommitContext, kind: str, key: str, value: Any) -> None:
    found = secrets.find_secrets_in_value(value)
    if found:
        raise _Refuse(f"the value of {kind}/{key} contains a secret ({found[0].kind})")
    spec = ctx.policy.spec(kind, key)
    if spec is None:
        raise _Refuse(f"{kind}/{key} is not in the policy's registry")
    if spec.tier == "deny":
        raise _Refuse(f"{kind}/{key} is a deny-tier key; it may not be stored")


#: Fact fields every new version sets afresh; the rest must say why they change.
_ALWAYS_NEW = frozenset({"version", "supersedes", "updatedAt", "operator", "changeReason"})
#: Fields that tie a fact to an extracted proposal; only the gate may set them.
_CLAIMS = ("evidence", "proposalId", "payloadHash", "confidence", "approvedBy")


def _successor(ctx: CommitContext, path: str, fact: Fact, *,
               may_change: frozenset[str] = frozenset()) -> Fact:
    """The parent's version of ``path``, after checking ``fact`` is its next version with
    only ``may_change`` (and the bookkeeping fields) different."""
    parent = ctx.parent_fact(path)
    if parent is None:
        raise _Refuse(f"fact {path} does not exist on the parent")
    if fact.version != parent.version + 1 or fact.supersedes != parent.version:
        raise _Refuse(f"fact {path}: version {fact.version} (supersedes {fact.supersedes}) "
                      f"does not follow v{parent.version}")
    if fact.operator != ctx.trailers.get("Operator"):
        raise _Refuse(f"fact {path}: operator is not the commit's Operator")
    got, was = fact.to_json(), parent.to_json()
    for key in sorted((got.keys() | was.keys()) - _ALWAYS_NEW - may_change):
        if got.get(key) != was.get(key):
            raise _Refuse(f"fact {path}: {key} may not change in a "
                          f"{ctx.trailers.get('Op', '?')} commit")
    return parent


def _memory_ids_named(ctx: CommitContext, facts: Mapping[str, Fact]) -> None:
    claimed = {v for k, v in ctx.pairs if k == "Memory-Id"}
    if claimed != {f.memory_id for f in facts.values()}:
        raise _Refuse("the Memory-Id trailers do not name exactly the facts this commit "
                      "writes")


def _facts_written(ctx: CommitContext) -> dict[str, Fact]:
    return {path: _fact_file(ctx, path, single=False)
            for path, c in sorted(ctx.changes.items())
            if path.startswith("facts/") and c.new is not None}


def _check_admin(ctx: CommitContext) -> None:
    """Administrator changes (create, edit, freeze, unfreeze, merge, split): trusted to
    set a value, with an operator and a reason, but never to claim evidence for it,
    to store a secret or a deny-tier key, or to touch anything but facts and indices."""
    ctx.require("Memory-Id", "Op", "Decision", "Operator", "Change-Reason")
    if "Policy-Version" in ctx.trailers:
        ctx.check_policy_version()
    facts = _facts_written(ctx)
    if not facts:
        raise _Refuse("an admin commit writes at least one fact")
    _memory_ids_named(ctx, facts)
    if len(facts) == 1 and "Fact-Version" in ctx.trailers and \
            ctx.trailers["Fact-Version"] != str(next(iter(facts.values())).version):
        raise _Refuse("Fact-Version does not match the fact written")
    created: dict[str, str] = {}
    for path, fact in facts.items():
        parent = ctx.parent_fact(path)
        if fact.operator != ctx.trailers["Operator"] or not fact.change_reason:
            raise _Refuse(f"fact {path}: operator and change reason must be the commit's")
        if parent is None:
            created[layout.id_index_path(fact.memory_id)] = path
            if fact.version != 1 or fact.supersedes is not None or \
                    fact.created_at != fact.updated_at or fact.status is not FactStatus.ACTIVE:
                raise _Refuse(f"fact {path} is new but does not start at version 1")
        else:
            if fact.version != parent.version + 1 or fact.supersedes != parent.version \
                    or fact.created_at != parent.created_at:
                raise _Refuse(f"fact {path}: version {fact.version} does not follow "
                              f"v{parent.version}")
        same_claim = parent is not None and fact.value == parent.value \
            and fact.source == parent.source
        if same_claim:
            assert parent is not None
            for key in (*_CLAIMS, "source"):
                if key != "approvedBy" and fact.to_json().get(key) != parent.to_json().get(key):
                    raise _Refuse(f"fact {path}: {key} may not change when the value does not")
        else:
            if fact.source is not FactSource.ADMIN_MANUAL:
                raise _Refuse(f"fact {path}: a value set by an administrator has source "
                              f"admin_manual, not {fact.source.value}")
            if any(fact.to_json().get(key) is not None for key in _CLAIMS):
                raise _Refuse(f"fact {path}: an administrator's value cannot carry evidence, "
                              "a proposal, a payloadHash, a confidence or an approval")
        if fact.status is FactStatus.ACTIVE:
            _refuse_secret_or_denied(ctx, fact.kind, fact.normalized_key, fact.value)
    paths_by_id = {f.memory_id: p for p, f in facts.items()}
    for path, change in ctx.changes.items():
        if path in facts:
            continue
        if change.new is None or change.old is not None:
            raise _Refuse(f"unexpected change to {path} for an admin commit")
        if path in created:
            _index_blob(ctx, path, created[path])
        elif (mid := layout.derived_memory_id(path)) in paths_by_id:
            _index_blob(ctx, path, paths_by_id[mid])
        else:
            raise _Refuse(f"unexpected change to {path} for an admin commit")
    for index in created:
        if index not in ctx.changes:
            raise _Refuse(f"{index} should change in this commit but does not")


def _check_revoke(ctx: CommitContext) -> None:
    ctx.require("Memory-Id", "Op", "Decision", "Operator", "Change-Reason")
    if ctx.trailers["Decision"] != "REVOKE":
        raise _Refuse("a revoke commit has Decision REVOKE")
    facts = _facts_written(ctx)
    ctx.only(facts)
    _memory_ids_named(ctx, facts)
    for path, fact in facts.items():
        parent = _successor(ctx, path, fact,
                            may_change=frozenset({"status", "approvedBy"}))
        if parent.status is not FactStatus.ACTIVE or fact.status is not FactStatus.REVOKED \
                or fact.approved_by is not None:
            raise _Refuse(f"fact {path}: a revoke turns an ACTIVE fact REVOKED")
        if fact.change_reason != ctx.trailers["Change-Reason"]:
            raise _Refuse(f"fact {path}: change reason is not the commit's")


def _check_renew(ctx: CommitContext) -> None:
    """A confirmed renewal: the same fact, a new expiry, bound by the payloadHash."""
    ctx.require("Proposal-Id", "Payload-Hash", "Memory-Id", "Fact-Version", "Op", "Decision",
                "Operator", "Approved-By")
    facts = _facts_written(ctx)
    ctx.only(facts)
    if len(facts) != 1:
        raise _Refuse("a renewal writes exactly one fact")
    _memory_ids_named(ctx, facts)
    ((path, fact),) = facts.items()
    _successor(ctx, path, fact, may_change=frozenset({"expiresAt", "approvedBy"}))
    t = ctx.trailers
    if t["Fact-Version"] != str(fact.version) or fact.approved_by != t["Approved-By"]:
        raise _Refuse(f"fact {path}: version or approver do not match the trailers")
    expected = canonical.payload_hash(
        value=fact.value, confidence=fact.confidence if fact.confidence is not None else 1.0,
        expires_at=fact.expires_at,
        evidence_hash=fact.evidence.sha256 if fact.evidence is not None else "")
    if t["Payload-Hash"] != expected:
        raise _Refuse(f"fact {path}: the approved payloadHash does not bind this value and "
                      "expiry")
    if fact.status is not FactStatus.ACTIVE or fact.frozen:
        raise _Refuse(f"fact {path}: only an active, unfrozen fact can be renewed")


def _check_restore(ctx: CommitContext) -> None:
    """A rollback: each fact file as it was at an earlier commit on main, byte for byte,
    or (absent then) its next version marked REVOKED."""
    ctx.require("Memory-Id", "Restore-Target", "Op", "Decision", "Operator", "Change-Reason")
    target = _git.to_oid(ctx.trailers["Restore-Target"])
    parent = ctx.state.main
    if target is None or parent is None or _git.commit_of(ctx.tenant.repo, target) is None \
            or not _git.is_ancestor(ctx.tenant.repo, target, parent):
        raise _Refuse("Restore-Target is not a commit on main's history")
    target_tree = _git.tree_of(ctx.tenant.repo, target)
    facts = _facts_written(ctx)
    ctx.only(facts)
    _memory_ids_named(ctx, facts)
    for path, fact in facts.items():
        then = _git.lookup(target_tree, path)
        if then is not None:
            if then.id != ctx.changes[path].new:
                raise _Refuse(f"fact {path} is not the file it was at the Restore-Target")
            continue
        before = _successor(ctx, path, fact, may_change=frozenset({"status", "approvedBy"}))
        if before.status is not FactStatus.ACTIVE or fact.status is not FactStatus.REVOKED:
            raise _Refuse(f"fact {path} did not exist at the Restore-Target, so it may only "
                          "be revoked")


def _check_policy_change(ctx: CommitContext, *, root: bool = False) -> None:
    ctx.require("Policy-Version", "Operator", *(() if root else ("Change-Reason",)))
    ctx.only({layout.POLICY_PATH}, required={layout.POLICY_PATH})
    data = ctx.json_file(layout.POLICY_PATH, "policy")
    try:
        policy = parse_policy(data)
    except MemrepoError as exc:
        raise _Refuse(f"policy.json does not validate: {exc.message}") from None
    if ctx.trailers["Policy-Version"] != policy.version:
        raise _Refuse(f"Policy-Version {ctx.trailers['Policy-Version']} is not the version of "
                      f"the committed policy ({policy.version})")


COMMIT_CHECKS: dict[str, Checker] = {
    "root": lambda ctx: _check_policy_change(ctx, root=True),
    "gate": _check_gate,
    "admin": _check_admin,
    "revoke": _check_revoke,
    "renew": _check_renew,
    "restore": _check_restore,
    "policy": _check_policy_change,
}


# -- entry points the installed scripts call --------------------------------------


def hook_repo_dir() -> Path:
    """The git dir a hook runs for: ``$GIT_DIR`` (set by git for hooks) or discovered."""
    git_dir = os.environ.get("GIT_DIR")
    if git_dir:
        return Path(git_dir).resolve()
    found = pygit2.discover_repository(os.getcwd())
    if found is None:
        raise StoreError("not inside a git repository", code="not_a_repository")
    return Path(found).resolve()


@dataclass(frozen=True)
class HookResult:
    code: int
    messages: tuple[str, ...]


def run_hook(name: str, args: Sequence[str], stdin: bytes) -> HookResult:
    """What the installed ``<name>`` script does; the CLI prints the messages to stderr."""
    repo_dir = hook_repo_dir()
    directory = hooks_dir(repo_dir)
    messages: list[str] = []
    if name == "pre-receive":
        quarantine = os.environ.get("GIT_QUARANTINE_PATH")
        refusals = check_push(repo_dir, parse_updates(stdin.decode("utf-8", "replace")),
                              object_dirs=[quarantine] if quarantine else [])
        if refusals:
            return HookResult(1, tuple(str(r) for r in refusals))
        return HookResult(run_chained(directory, name, args, stdin), ())
    if name == "post-receive":
        messages += notify(repo_dir, parse_updates(stdin.decode("utf-8", "replace")))
    elif name == "post-commit":
        repo = _git.open_repo(repo_dir)
        try:
            head = repo.head
            updates = [RefUpdate(None, str(head.target), head.name)]
        except pygit2.GitError:
            updates = []
        messages += notify(repo_dir, updates)
    else:
        raise InputError(f"memrepo has no {name!r} hook", code="unknown_hook")
    code = run_chained(directory, name, args, stdin)
    return HookResult(code, tuple(f"memrepo: {m}" for m in messages))
