"""Opening memrepo's SQLite side files: several processes at once, busy versus damaged."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from memrepo import _sqlite

PROCESSES = 4
ROUNDS = 12


def _open_child(path: str, barrier: Any, results: Any) -> None:
    """Child process: open the same new file as its siblings, at the same moment."""
    barrier.wait()
    try:
        conn = _sqlite.connect(path, timeout=10, synchronous="NORMAL")
        conn.execute("CREATE TABLE IF NOT EXISTS t(x)")
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        conn.close()
        results.put(mode)
    except Exception as exc:  # noqa: BLE001 - reported to the parent as the result
        results.put(repr(exc))


@pytest.mark.slow
def test_processes_opening_a_new_file_at_once_all_get_wal(tmp_path: Path) -> None:
    # Plain connect + "PRAGMA journal_mode = WAL" fails here within a few rounds:
    # SQLite answers one of two racing upgrades "database is locked" without waiting.
    ctx = multiprocessing.get_context("spawn")
    for n in range(ROUNDS):
        barrier, results = ctx.Barrier(PROCESSES), ctx.Queue()
        children = [ctx.Process(target=_open_child,
                                args=(str(tmp_path / f"{n}.sqlite"), barrier, results))
                    for _ in range(PROCESSES)]
        for child in children:
            child.start()
        modes = [results.get(timeout=60) for _ in children]
        for child in children:
            child.join(60)
        assert modes == ["wal"] * PROCESSES, modes


def test_a_lock_held_past_the_timeout_is_busy_and_leaves_the_file(tmp_path: Path) -> None:
    path = tmp_path / "held.sqlite"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t(x)")
    holder.execute("BEGIN EXCLUSIVE")
    with pytest.raises(sqlite3.OperationalError) as info:
        _sqlite.connect(path, timeout=0.2, synchronous="NORMAL")
    assert _sqlite.is_busy(info.value)
    holder.execute("ROLLBACK")
    holder.close()
    conn = _sqlite.connect(path, timeout=1, synchronous="NORMAL")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 0
    conn.close()


def test_a_damaged_file_is_not_busy(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite"
    path.write_bytes(b"this is not a database, just bytes " * 64)
    with pytest.raises(sqlite3.DatabaseError) as info:
        _sqlite.connect(path, timeout=1, synchronous="NORMAL")
    assert not _sqlite.is_busy(info.value)


@pytest.mark.parametrize("synchronous", ["OFF", "NORMAL", "FULL"])
def test_synchronous_is_set(tmp_path: Path, synchronous: str) -> None:
    conn = _sqlite.connect(tmp_path / "s.sqlite", timeout=1, synchronous=synchronous)
    levels = {"OFF": 0, "NORMAL": 1, "FULL": 2}
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == levels[synchronous]
    conn.close()
