"""Opening the SQLite files memrepo keeps beside a tenant (projections, the record index).

Both are derived data opened by any process that needs them, often several at once. Two
connections switching a new file to WAL at the same moment can each hold a shared lock
and ask for an exclusive one; SQLite then answers one of them "database is locked" at
once, without waiting through the busy timeout (waiting could not help: it is a
deadlock). That answer means "try again", not "the file is damaged", so the switch is
retried until the timeout; only then does the error reach the caller.
"""

from __future__ import annotations

import os
import random
import sqlite3
import time

_BUSY = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


def is_busy(exc: BaseException) -> bool:
    """Is ``exc`` SQLite's "busy"/"locked" (extended codes included), not damage?"""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.OperationalError) and code is not None and \
        code & 0xFF in _BUSY


def connect(path: str | os.PathLike[str], *, timeout: float, synchronous: str,
            check_same_thread: bool = True) -> sqlite3.Connection:
    """An autocommit connection to ``path`` in WAL mode with ``synchronous`` set.

    Waits up to ``timeout`` seconds for other connections, also while switching to WAL.
    """
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None,
                           check_same_thread=check_same_thread)
    deadline = time.monotonic() + timeout
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        while True:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as exc:
                if not is_busy(exc) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.005 + random.random() * 0.02)   # let the other one finish
        conn.execute(f"PRAGMA synchronous = {synchronous}")
    except BaseException:
        conn.close()
        raise
    return conn
