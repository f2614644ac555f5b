"""Group commit: proposals that arrive together are decided in order and published together.

With durability on, a commit's cost is its fsyncs, not its CPU. So the gate's proposals
for one tenant go through a *leader*: it decides everything waiting, one proposal after
another against the batch's moving tip (each still its own commit with its own
trailers, :meth:`memrepo.store.TenantRepo.staged`), then publishes the whole batch with
one pack and one compare-and-swap, and tells every caller its own result.

Protocol, per tenant repository, among the threads and processes of one host:

* ``<repo>/memrepo-leader.lock`` is an ``flock``: its holder is the leader, the only one
  deciding gate proposals (and ingesting messages) for the tenant at that moment.
* A caller that finds it taken writes its proposal into ``<repo>/memrepo-spool/`` as
  ``<arrival>.req`` (under a temporary name, then renamed: it appears whole) and waits.
* The leader takes the spooled requests, oldest first (at most :data:`MAX_BATCH`), and
  its own; decides them in that order; publishes; writes each waiting caller's result
  next to its request (``<arrival>.res``), removes the request and lets go of the lock.
* While deciding and publishing, the leader also holds ``<repo>/memrepo-batch.lock``;
  a waiting caller sleeps on it (a shared ``flock``, which the kernel grants when the
  batch is over), then looks for its result. If there is none (it came too late for
  that batch) and the leader lock is free, it becomes the leader and takes whatever is
  waiting, its own request included; otherwise it sleeps through the next batch.

Latency: a caller alone finds the lock free and decides at once; nothing waits for
company. When others are already waiting, the leader waits :func:`window_seconds`
(``MEMREPO_GROUP_WINDOW_MS``, default 1 ms) for stragglers, again while more keep coming,
at most :data:`MAX_WINDOWS` times, before deciding. Under load
batches form by themselves: requests arriving while a batch is being written wait for
the next one.

Failures: a leader killed mid-batch loses the lock with its life. Its batch was either
published or not, and the requests it took are still spooled, so the next leader decides
them again (one that was published comes back DUPLICATE, original_commit: what is on
``main`` is what the caller asked for). A request whose submitting process has died is
dropped unanswered, as if it had never been sent. An error while publishing (a full
disk) is the answer of every member of the batch; nothing of the batch is on ``main``.
A caller that waits :data:`WAIT_TIMEOUT` for an answer gives up with a StoreError; the
outcome is then unknown, and submitting again is safe (proposals are idempotent).
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import _git, errors
from .errors import MemrepoError, StoreError
from .proposal import Decision, MemoryProposal, parse_proposal

if TYPE_CHECKING:
    from .store import TenantRepo

LEADER_LOCK = "memrepo-leader.lock"
BATCH_LOCK = "memrepo-batch.lock"
SPOOL_DIR = "memrepo-spool"
#: Most proposals one batch decides; the rest wait for the next leader (bounded latency).
MAX_BATCH = 256
#: How long a caller waits for its answer (or for the lock) before giving up.
WAIT_TIMEOUT = 120.0
#: A leader waits at most this many windows for stragglers (only while they keep coming).
MAX_WINDOWS = 5
_POLL_FIRST = 50e-6
_POLL_MAX = 1e-3


@dataclass(frozen=True)
class Item:
    """One proposal to decide, with the caller's clock and durability."""

    proposal: MemoryProposal
    now: datetime
    durable: bool


Result = Decision | BaseException
#: Decides a batch: (tenant, items, durable) -> one result per item, in order.
Decide = Callable[["TenantRepo", list[Item], bool], list[Result]]


def window_seconds() -> float:
    """How long a leader waits for stragglers when others are waiting already."""
    raw = os.environ.get("MEMREPO_GROUP_WINDOW_MS")
    try:
        return max(0.0, float(raw)) / 1000 if raw else 0.001
    except ValueError:
        return 0.001


class _Held(threading.local):
    def __init__(self) -> None:
        self.paths: dict[str, int] = {}


_HELD = _Held()


def held_here(repo_path: str | os.PathLike[str]) -> bool:
    """Whether this thread holds the tenant's leader lock."""
    return str(repo_path) in _HELD.paths


class _Locks:
    """The leader lock and the batch lock: flocks the OS releases when their holder dies."""

    def __init__(self, repo_path: Path) -> None:
        self.paths = (repo_path / LEADER_LOCK, repo_path / BATCH_LOCK)
        self.fds: list[int] = []
        self.leading = False

    def _open(self) -> tuple[int, int]:
        if not self.fds:
            try:
                for path in self.paths:
                    self.fds.append(os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644))
            except OSError as exc:
                self.close()
                raise _git.io_error(exc, f"cannot open {self.paths[0]}") from exc
        return self.fds[0], self.fds[1]

    def try_lead(self) -> bool:
        """Take the leader lock if it is free, then the batch lock (waiting callers sleep
        on it until the batch is over)."""
        leader, batch = self._open()
        try:
            fcntl.flock(leader, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(batch, fcntl.LOCK_EX)  # waits out callers just waking from the last one
        self.leading = True
        return True

    def wait_for_batch(self) -> float:
        """Sleep until the running batch is over; returns how long that took."""
        _leader, batch = self._open()
        started = time.monotonic()
        fcntl.flock(batch, fcntl.LOCK_SH)
        fcntl.flock(batch, fcntl.LOCK_UN)
        return time.monotonic() - started

    def close(self) -> None:
        for fd in self.fds:
            os.close(fd)  # drops its flock too
        self.fds = []
        self.leading = False


@contextmanager
def _leading(repo_path: Path) -> Iterator[None]:
    key = str(repo_path)
    _HELD.paths[key] = _HELD.paths.get(key, 0) + 1
    try:
        yield
    finally:
        _HELD.paths[key] -= 1
        if not _HELD.paths[key]:
            del _HELD.paths[key]


@contextmanager
def exclusive(repo_path: str | os.PathLike[str], *, timeout: float = WAIT_TIMEOUT
              ) -> Iterator[None]:
    """Hold the tenant's leader lock (re-entrant within a thread): writes made meanwhile
    cannot make a batch of decisions lose its compare-and-swap, nor lose theirs to one."""
    path = Path(repo_path)
    if held_here(path):
        with _leading(path):
            yield
        return
    locks = _Locks(path)
    try:
        deadline = time.monotonic() + timeout
        delay = _POLL_FIRST
        while not locks.try_lead():
            if time.monotonic() > deadline:
                raise StoreError(f"the group-commit lock of {path} stayed taken for {timeout}s",
                                 code="group_lock_timeout")
            time.sleep(delay)
            delay = min(delay * 2, _POLL_MAX)
        with _leading(path):
            yield
    finally:
        locks.close()


def submit(tenant: TenantRepo, item: Item, decide: Decide) -> Decision:
    """Decide ``item`` as part of whatever batch it can join (see the module docstring)."""
    path = tenant.path
    if held_here(path):  # this thread leads a batch already (e.g. a nested decision)
        return _unwrap(decide(tenant, [item], item.durable)[0])
    locks = _Locks(path)
    try:
        if locks.try_lead():
            with _leading(path):
                return _unwrap(_lead(tenant, [item], None, decide)[0])
        spool = _Spool(path)
        name = spool.put(item)
        deadline = time.monotonic() + WAIT_TIMEOUT
        delay = _POLL_FIRST
        while True:
            result = spool.take_result(name)
            if result is not None:
                return _unwrap(result)
            if locks.try_lead():
                result = spool.take_result(name)  # answered just before the lock came free
                if result is not None:
                    return _unwrap(result)
                with _leading(path):
                    return _unwrap(_lead(tenant, [item], name, decide)[0])
            if time.monotonic() > deadline and spool.withdraw(name):
                raise StoreError(f"no answer from the group-commit leader of {path} within "
                                 f"{WAIT_TIMEOUT}s; the proposal may or may not have been "
                                 "decided (submitting it again is safe)",
                                 code="group_commit_timeout")
            if locks.wait_for_batch() < _POLL_FIRST:
                # No batch was running: a leader is between its two locks, or the lock is
                # held by a writer that decides nothing (an ingest). Back off a little.
                time.sleep(delay)
                delay = min(delay * 2, _POLL_MAX)
            else:
                delay = _POLL_FIRST
    finally:
        locks.close()


def lead(tenant: TenantRepo, items: Sequence[Item], decide: Decide) -> list[Result]:
    """Decide ``items`` (and whatever waits in the spool) as the leader, waiting for the
    lock if need be. Returns one result per item: a Decision or the exception."""
    with exclusive(tenant.path):
        return _lead(tenant, list(items), None, decide)


def _lead(tenant: TenantRepo, own: list[Item], own_name: str | None, decide: Decide
          ) -> list[Result]:
    """With the lock held: decide the spooled requests and ``own``, publish, answer."""
    spool = _Spool(tenant.path)
    room = max(0, MAX_BATCH - len(own))
    taken = spool.take(room, skip={own_name} if own_name else set())
    window = window_seconds()
    waited = 0.0
    while taken and window and len(taken) < room and waited < MAX_WINDOWS * window:
        # Others are about: wait for stragglers as long as they keep coming (the callers
        # just answered are about to send their next proposals).
        time.sleep(window)
        waited += window
        more = spool.take(room - len(taken), skip={n for n, _ in taken} | {own_name or ""})
        if not more:
            break
        taken += more
    if own_name is None:  # own arrived last: everything spooled came before it
        order: list[tuple[str | None, Item]] = [*taken, *((None, i) for i in own)]
    else:
        order = sorted([*taken, (own_name, own[0])], key=lambda pair: pair[0] or "")
    items = [item for _, item in order]
    durable = tenant.durable or any(item.durable for item in items)
    try:
        results = decide(tenant, items, durable)
    except BaseException as exc:
        _answer_all(spool, order, exc, own_name)
        raise
    _answer_all(spool, order, results, own_name)
    if own_name is None:
        return results[len(taken):]
    return [results[[n for n, _ in order].index(own_name)]]


def _answer_all(spool: _Spool, order: list[tuple[str | None, Item]],
                results: list[Result] | BaseException, own_name: str | None) -> None:
    for index, (name, _item) in enumerate(order):
        if name is None:
            continue
        if name == own_name:
            spool.withdraw(name)
            continue
        result = results if isinstance(results, BaseException) else results[index]
        spool.answer(name, result)


def _unwrap(result: Result) -> Decision:
    if isinstance(result, BaseException):
        raise result
    return result


# -- the spool -------------------------------------------------------------------------


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _encode(result: Result) -> dict[str, Any]:
    if isinstance(result, Decision):
        return {"decision": result.model_dump(mode="json", by_alias=True)}
    if isinstance(result, MemrepoError):
        return {"error": {"type": type(result).__name__, "code": result.code,
                          "message": result.message}}
    return {"error": {"type": "StoreError", "code": "leader_failed",
                      "message": f"the group-commit leader failed: {result!r}"}}


def _decode(data: dict[str, Any]) -> Result:
    if "decision" in data:
        return Decision.model_validate(data["decision"])
    error = data.get("error") or {}
    cls = getattr(errors, str(error.get("type")), None)
    if not (isinstance(cls, type) and issubclass(cls, MemrepoError)):
        cls = StoreError
    return cls(str(error.get("message", "the group-commit leader failed")),
               code=str(error.get("code", "leader_failed")))


class _Spool:
    """Requests and answers, one small file each, written whole (temporary name + rename).

    Nothing here is fsynced: a request lives only as long as its waiting caller, and
    what is durable is the batch itself.
    """

    def __init__(self, repo_path: Path) -> None:
        self.dir = repo_path / SPOOL_DIR

    def _write(self, path: Path, data: bytes) -> None:
        tmp = self.dir / f".tmp-{uuid.uuid4().hex}"
        try:
            _git.io_point("spool write")
            tmp.write_bytes(data)
            os.rename(tmp, path)
        except OSError as exc:
            with suppress(OSError):
                tmp.unlink()
            raise _git.io_error(exc, f"cannot write {path}") from exc

    def put(self, item: Item) -> str:
        self.dir.mkdir(exist_ok=True)
        name = f"{time.time_ns():020d}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        body = {"proposal": item.proposal.to_json(), "now": item.now.isoformat(),
                "durable": item.durable, "pid": os.getpid()}
        self._write(self.dir / f"{name}.req", json.dumps(body).encode())
        return name

    def take(self, limit: int, *, skip: set[str]) -> list[tuple[str, Item]]:
        """Up to ``limit`` waiting requests, oldest first; a dead submitter's are dropped."""
        try:
            names = sorted(n[:-4] for n in os.listdir(self.dir) if n.endswith(".req"))
        except FileNotFoundError:
            return []
        out: list[tuple[str, Item]] = []
        for name in names:
            if len(out) >= limit:
                break
            if name in skip:
                continue
            path = self.dir / f"{name}.req"
            try:
                body = json.loads(path.read_bytes())
                if not _alive(int(body["pid"])):
                    raise ValueError("its submitter is gone")
                item = Item(parse_proposal(body["proposal"]),
                            datetime.fromisoformat(body["now"]), bool(body["durable"]))
            except FileNotFoundError:
                continue  # withdrawn
            except (ValueError, KeyError, TypeError, MemrepoError):
                with suppress(OSError):
                    path.unlink()
                continue
            out.append((name, item))
        return out

    def answer(self, name: str, result: Result) -> None:
        """Write a waiting caller's result, then remove its request. Best effort: if the
        result cannot be written, the caller decides again itself once the lock is free
        and finds the batch's outcome in the repository."""
        with suppress(StoreError):
            self._write(self.dir / f"{name}.res", json.dumps(_encode(result)).encode())
        with suppress(OSError):
            (self.dir / f"{name}.req").unlink()

    def take_result(self, name: str) -> Result | None:
        path = self.dir / f"{name}.res"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        with suppress(OSError):
            path.unlink()
        with suppress(OSError):
            (self.dir / f"{name}.req").unlink()
        try:
            return _decode(json.loads(data))
        except (ValueError, TypeError) as exc:
            return StoreError(f"unreadable answer from the group-commit leader: {exc}",
                              code="leader_failed")

    def withdraw(self, name: str) -> bool:
        """Take a request back; False if a leader already answered it."""
        try:
            (self.dir / f"{name}.req").unlink()
        except FileNotFoundError:
            return False
        return True


def sweep(repo_path: str | os.PathLike[str], *, older_than: float = 600.0) -> int:
    """Remove spool files nobody will read any more (answers to callers that gave up or
    died, half-written temporaries); returns how many. Used by maintenance."""
    directory = Path(repo_path) / SPOOL_DIR
    removed = 0
    now = time.time()
    try:
        entries = list(directory.iterdir())
    except FileNotFoundError:
        return 0
    for entry in entries:
        try:
            stale = now - entry.stat().st_mtime >= older_than
            if entry.name.endswith(".req"):
                body = json.loads(entry.read_bytes())
                stale = stale and not _alive(int(body.get("pid", 0)))
            if stale:
                entry.unlink()
                removed += 1
        except (OSError, ValueError, TypeError, AttributeError):
            continue
    return removed
