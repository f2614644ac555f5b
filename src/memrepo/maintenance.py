"""Housekeeping of tenant repositories: pack, clean up, recover locks, verify, measure.

Everything here is safe while writers run, because it only ever does what git itself
does concurrently with pushes:

* objects are packed with ``git repack``; nothing unreachable younger than two weeks is
  ever dropped (``--cruft --cruft-expiration=2.weeks.ago``: such objects go to a cruft
  pack), so a batch whose pack is written but whose ref is not yet moved keeps its
  objects; libgit2 readers find objects that moved to a new pack by re-scanning;
* refs are only packed (``git pack-refs --all``), under memrepo's compare-and-swap lock;
* temporary files are removed only when old (a live writer's are fresh);
* a ``<ref>.lock`` is removed only while holding the compare-and-swap lock (so no memrepo
  writer is between locking and updating) and when older than ``stale_after``.

Two passes:

* **light** (automatic): after every :data:`AUTO_EVERY` published batches a writer
  counts the packs and estimates the loose objects (git's own estimate: one fan-out
  folder times 256); past :data:`AUTO_PACKS` or :data:`AUTO_LOOSE` it starts
  ``git repack -d --geometric=2`` in a detached background process (one at a time per
  tenant). Each batch writes one small pack, so this keeps the pack count small (and
  writes cheap, see AUTO_PACKS) without making any caller wait for it: the commit
  that notices only spawns a shell. ``MEMREPO_AUTO_MAINTENANCE=off`` disables it,
  ``inline`` runs it in the writer (tests).
* **full** (``memrepo maintenance``, scheduled daily): everything above, plus one pack
  for all reachable objects with every delta recomputed and every object recompressed
  (``git repack -F``: git reuses objects of existing packs as they are, and packs
  written by batches hold no deltas and uncompressed trees), fsck, the proposal record
  index brought up to date (so no writer's lookup pays for building it on a large
  tenant) and, with fsck, compared row by row with the trees (rebuilt if it differs),
  and a size report.
  ``--fast`` keeps existing objects: cheaper on a large tenant, about 2.5 times the
  bytes for a history written one commit per fact.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import _git, groupcommit, layout
from .errors import StoreError
from .recordindex import Check, index_files

if TYPE_CHECKING:
    from .store import Store, TenantRepo

#: Published batches between two cheap checks of the object directory.
AUTO_EVERY = 8
#: More packs than this make the next check start a light pass. Far below git's
#: gc.autoPackLimit (50): libgit2 looks an object up in the packs one after another, and
#: a batch reads every object it writes through them before finding it in memory.
AUTO_PACKS = 16
#: More loose objects than this (estimated) too (git's gc.auto is 6700).
AUTO_LOOSE = 2000
#: Held by whoever repacks (light or full); a stale one (crashed holder) is taken over.
LOCK_NAME = "memrepo-maintenance.lock"
LOCK_STALE_SECONDS = 600.0
#: Unreachable objects younger than this are never dropped.
PRUNE_EXPIRY = "2.weeks.ago"
#: Git settings for every repack. No bitmaps: libgit2 does not read them and they cost
#: space. A delta window of 50: every commit rewrites the fan-out trees on its paths, and
#: versions of ``facts/ab``, ``ids/ab``, ``proposals/ab``... share a name, so git's
#: default window (10) often misses the right base. Chains up to 250 deep: a 256-entry
#: fan-out tree stored whole every 50 versions cost ~150 B per version of each.
_GIT_CONFIG = ("-c", "repack.writeBitmaps=false", "-c", "pack.writeBitmapHashCache=false",
               "-c", "pack.window=50", "-c", "pack.depth=250")
#: The light pass rolls packs and loose objects up with a quick delta search (git's
#: default window, 10) and short chains (depth 10). Without any search, what batches wrote
#: stayed ~37 KB per commit until the full pass (their trees are stored whole); with git's
#: default depth (50), the blobs it rolled up became chains that every later random read
#: resolved (a random record read at a million facts took 2.3x as long as undeltified).
#: Depth 10 keeps ~90% of the saving (8.2 KB per commit against 7.5) and a proposalId
#: lookup at a million facts within 1.3x of ten thousand; the full pass recomputes every
#: delta anyway.
_LIGHT = ("-c", "pack.window=10", "-c", "pack.depth=10", "repack", "-d", "-q", "--geometric=2")

_counts: dict[str, int] = {}
_counts_lock = threading.Lock()


def git_env() -> dict[str, str]:
    """The environment for git subprocesses: none of a calling hook's repository settings."""
    drop = {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
            "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH", "GIT_COMMON_DIR",
            "GIT_NAMESPACE"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def _git_cmd(path: Path, *args: str) -> list[str]:
    return ["git", "--git-dir", str(path), *_GIT_CONFIG, *args]


# -- sizes ----------------------------------------------------------------------------------


@dataclass
class Sizes:
    """What a tenant's object directory holds (bytes are file sizes; ``loose_disk_bytes``
    counts the 4 KB blocks loose objects really occupy)."""

    loose_objects: int = 0
    loose_bytes: int = 0
    loose_disk_bytes: int = 0
    packs: int = 0
    pack_bytes: int = 0
    garbage_files: int = 0
    #: The proposal record index next to the objects (derived; not in ``total_bytes``).
    index_bytes: int = 0

    @property
    def total_bytes(self) -> int:
        return self.loose_bytes + self.pack_bytes

    def to_json(self) -> dict[str, Any]:
        return {"looseObjects": self.loose_objects, "looseBytes": self.loose_bytes,
                "looseDiskBytes": self.loose_disk_bytes, "packs": self.packs,
                "packBytes": self.pack_bytes, "garbageFiles": self.garbage_files,
                "totalBytes": self.total_bytes, "indexBytes": self.index_bytes}


def sizes(repo_path: str | os.PathLike[str]) -> Sizes:
    """Scan ``objects/`` (every fan-out folder: cost grows with the loose object count)."""
    objects = Path(repo_path) / "objects"
    out = Sizes()
    for sub in _listdir(objects):
        if len(sub) != 2:
            continue
        for name in _listdir(objects / sub):
            try:
                st = (objects / sub / name).stat()
            except FileNotFoundError:
                continue
            out.loose_objects += 1
            out.loose_bytes += st.st_size
            out.loose_disk_bytes += st.st_blocks * 512
    pack = objects / "pack"
    names = set(_listdir(pack))
    for name in names:
        try:
            size = (pack / name).stat().st_size
        except FileNotFoundError:
            continue
        stem, _, suffix = name.rpartition(".")
        if name.startswith("pack-") and suffix == "idx" and f"{stem}.pack" in names:
            out.packs += 1
        if name.startswith("pack-"):
            out.pack_bytes += size
        else:
            out.garbage_files += 1
    for path in index_files(repo_path):
        with contextlib.suppress(OSError):
            out.index_bytes += path.stat().st_size
    return out


def _listdir(path: Path) -> list[str]:
    try:
        return os.listdir(path)
    except (FileNotFoundError, NotADirectoryError):
        return []


def estimate(repo_path: str | os.PathLike[str]) -> tuple[int, int]:
    """(packs, estimated loose objects): cheap enough to call after a commit."""
    objects = Path(repo_path) / "objects"
    packs = sum(1 for n in _listdir(objects / "pack") if n.endswith(".idx"))
    loose = len(_listdir(objects / "17")) * 256  # git's estimate (gc.auto)
    return packs, loose


def fact_versions(repo_path: str | os.PathLike[str]) -> int:
    """Distinct fact files ever on ``main`` (every version is a distinct blob).

    Lists every object reachable from ``main`` with its path (``git rev-list --objects``):
    seconds per million objects."""
    depth = layout.fact_path("s", {"kind": "k", "key": "k"}, "k", "k").count("/")
    proc = subprocess.run(_git_cmd(Path(repo_path), "rev-list", "--objects", layout.MAIN_REF),
                          capture_output=True, env=git_env(), check=False)
    if proc.returncode != 0:
        raise StoreError(f"git rev-list failed: {proc.stderr.decode(errors='replace')[:200]}",
                         code="git_failed")
    seen = set()
    for line in proc.stdout.splitlines():
        oid, _, path = line.partition(b" ")
        if path.startswith(b"facts/") and path.endswith(b".json") and path.count(b"/") == depth:
            seen.add(oid)
    return len(seen)


# -- the maintenance lock -------------------------------------------------------------------


def _take_lock(repo_path: Path) -> bool:
    """Create the maintenance lock (O_EXCL); take over one older than LOCK_STALE_SECONDS."""
    lock = repo_path / LOCK_NAME
    for _ in range(2):
        try:
            fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        except FileExistsError:
            try:
                if time.time() - lock.stat().st_mtime < LOCK_STALE_SECONDS:
                    return False
                lock.unlink()
            except FileNotFoundError:
                pass
            continue
        except OSError:
            return False
        os.write(fd, f"{os.getpid()} {time.time():.0f}\n".encode())
        os.close(fd)
        return True
    return False


def _release_lock(repo_path: Path) -> None:
    try:
        (repo_path / LOCK_NAME).unlink()
    except FileNotFoundError:
        pass


def _wait_for_lock(repo_path: Path, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not _take_lock(repo_path):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# -- the automatic light pass -----------------------------------------------------------------


def _auto_mode() -> str:
    return os.environ.get("MEMREPO_AUTO_MAINTENANCE", "background").lower()


def after_publish(tenant: TenantRepo) -> None:
    """Called after each published batch: every AUTO_EVERY of them, a cheap look at the
    object directory, and a light pass when packs or loose objects pile up."""
    mode = _auto_mode()
    if mode in ("0", "off", "no", "false"):
        return
    key = str(tenant.path)
    with _counts_lock:
        count = _counts[key] = _counts.get(key, 0) + 1
    if count % AUTO_EVERY:
        return
    packs, loose = estimate(tenant.path)
    if packs <= AUTO_PACKS and loose <= AUTO_LOOSE:
        return
    if mode == "inline":
        light(tenant.path)
    else:
        spawn_light(tenant.path)


def light(repo_path: str | os.PathLike[str]) -> bool:
    """Roll small packs and loose objects up (``git repack -d --geometric=2``), in this
    process. False when another maintenance pass holds the lock."""
    path = Path(repo_path)
    if not _take_lock(path):
        return False
    try:
        subprocess.run(_git_cmd(path, *_LIGHT), env=git_env(), capture_output=True,
                       check=False)
    finally:
        _release_lock(path)
    return True


def spawn_light(repo_path: str | os.PathLike[str]) -> bool:
    """Start the light pass in a detached process (its shell exits at once, so no child
    of ours is left to reap); the lock file is removed when git is done."""
    path = Path(repo_path)
    if not _take_lock(path):
        return False
    git = " ".join(f'"{a}"' for a in ("git", "--git-dir", "$1", *_GIT_CONFIG, *_LIGHT))
    script = f'({git}; rm -f "$2") </dev/null >/dev/null 2>&1 &'
    try:
        subprocess.run(["sh", "-c", script, "sh", str(path), str(path / LOCK_NAME)],
                       env=git_env(), check=False, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        _release_lock(path)
        return False
    return True


# -- the full pass ----------------------------------------------------------------------------


@dataclass
class Report:
    """What one maintenance pass did to one tenant, and the sizes before and after."""

    tenant_id: str
    path: str
    before: Sizes
    after: Sizes
    removed_temp_files: int = 0
    removed_spool_files: int = 0
    recovered_ref_locks: list[str] = field(default_factory=list)
    packed_refs: bool = False
    repacked: bool = False
    fsck_ok: bool | None = None
    fsck_errors: list[str] = field(default_factory=list)
    fact_versions: int | None = None
    #: The proposal record index brought up to date (and verified with fsck); None if
    #: it could not be (lookups walk the trees then).
    record_index: Check | None = None
    seconds: float = 0.0
    skipped: str | None = None

    @property
    def bytes_per_fact_version(self) -> float | None:
        if not self.fact_versions:
            return None
        return self.after.total_bytes / self.fact_versions

    def to_json(self) -> dict[str, Any]:
        out = {k: v for k, v in asdict(self).items() if k not in ("before", "after")}
        return {
            "tenantId": self.tenant_id, "path": self.path, "before": self.before.to_json(),
            "after": self.after.to_json(), "removedTempFiles": self.removed_temp_files,
            "removedSpoolFiles": self.removed_spool_files,
            "recoveredRefLocks": self.recovered_ref_locks, "packedRefs": self.packed_refs,
            "repacked": self.repacked, "fsckOk": self.fsck_ok, "fsckErrors": self.fsck_errors,
            "factVersions": self.fact_versions,
            "recordIndex": None if self.record_index is None else asdict(self.record_index),
            "bytesPerFactVersion": self.bytes_per_fact_version,
            "seconds": round(out["seconds"], 3), "skipped": self.skipped,
        }


def run(store: Store, tenant_ids: Iterable[str] | None = None, *, repack: bool = True,
        fsck: bool = True, count: bool = True, recompute_deltas: bool = True,
        stale_after: float = 60.0, temp_after: float = 60.0) -> list[Report]:
    """The full pass over some tenants (default: all), one after another."""
    ids = list(tenant_ids) if tenant_ids is not None else store.tenants()
    return [maintain(store.tenant(t), repack=repack, fsck=fsck, count=count,
                     recompute_deltas=recompute_deltas, stale_after=stale_after,
                     temp_after=temp_after)
            for t in ids]


def maintain(tenant: TenantRepo, *, repack: bool = True, fsck: bool = True,
             count: bool = True, recompute_deltas: bool = True, stale_after: float = 60.0,
             temp_after: float = 60.0, lock_timeout: float = 600.0) -> Report:
    """The full pass on one tenant (see the module docstring), safe while writers run.

    ``recompute_deltas=False`` keeps the deltas packs have (none, for packs written by
    batches; rough ones from light passes): cheaper on a large tenant, larger on disk
    (7.9 instead of 3.1 KB per fact version for a history of one commit per fact, in
    bench_durable's measurement: batch packs hold trees uncompressed).
    """
    started = time.monotonic()
    path = tenant.path
    report = Report(tenant.tenant_id, str(path), sizes(path), Sizes())
    repo = _git.open_repo(path)
    report.removed_temp_files = _git.clean_temp_files(repo, older_than=temp_after)
    report.removed_temp_files += _remove_orphan_packs(path, older_than=max(temp_after, 3600))
    report.removed_spool_files = groupcommit.sweep(path, older_than=max(temp_after, 600))
    with _git.holding_cas_lock(repo):
        report.recovered_ref_locks = _recover_ref_locks(repo, stale_after)
        if repack:
            _run_git(path, "pack-refs", "--all")
            report.packed_refs = True
    if repack:
        if _wait_for_lock(path, lock_timeout):
            try:
                _run_git(path, "repack", "-d", "-q", "--cruft",
                         f"--cruft-expiration={PRUNE_EXPIRY}",
                         *(["-F"] if recompute_deltas else []))
                report.repacked = True
            finally:
                _release_lock(path)
        else:
            report.skipped = "another repack held the maintenance lock"
    if fsck:
        proc = subprocess.run(_git_cmd(path, "fsck", "--no-progress", "--no-dangling"),
                              capture_output=True, text=True, env=git_env(), check=False)
        lines = [ln for ln in (proc.stdout + proc.stderr).splitlines()
                 if ln and not ln.startswith(("notice:", "Checking"))]
        report.fsck_ok = proc.returncode == 0 and not lines
        report.fsck_errors = lines[:50]
    report.record_index = tenant.refresh_record_index(verify=fsck)
    report.after = sizes(path)
    if count:
        report.fact_versions = fact_versions(path)
    report.seconds = time.monotonic() - started
    return report


def _run_git(path: Path, *args: str) -> None:
    proc = subprocess.run(_git_cmd(path, *args), capture_output=True, text=True,
                          env=git_env(), check=False)
    if proc.returncode != 0:
        raise StoreError(f"git {args[0]} failed in {path}: {proc.stderr.strip()[:300]}",
                         code="git_failed")


def _recover_ref_locks(repo: Any, older_than: float) -> list[str]:
    """Remove ``*.lock`` files under refs/ (and packed-refs.lock) older than ``older_than``.
    The caller holds the compare-and-swap lock, so no memrepo writer owns any of them."""
    root = Path(repo.path)
    found: list[str] = []
    candidates = [*(root / "refs").rglob("*.lock"), root / "packed-refs.lock"]
    for lock in candidates:
        if not lock.is_file():
            continue
        ref = str(lock.relative_to(root))[: -len(".lock")]
        if _git.recover_stale_ref_lock(repo, ref, older_than=older_than):
            found.append(ref)
    return found


def _remove_orphan_packs(path: Path, *, older_than: float) -> int:
    """``.pack`` files without their ``.idx`` (a writer died between the two renames)."""
    pack = path / "objects" / "pack"
    names = set(_listdir(pack))
    removed = 0
    now = time.time()
    for name in names:
        if not (name.startswith("pack-") and name.endswith(".pack")):
            continue
        if name[: -len(".pack")] + ".idx" in names:
            continue
        try:
            if now - (pack / name).stat().st_mtime >= older_than:
                (pack / name).unlink()
                removed += 1
        except FileNotFoundError:
            continue
    return removed
