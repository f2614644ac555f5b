"""Shared fixtures: real stores in tmp_path, a pinned git identity, no writes to $HOME."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memrepo import canonical, gate
from memrepo.proposal import Decision, Message
from memrepo.store import Store

REPO_ROOT = Path(__file__).resolve().parent.parent
SHARED_EVAL = REPO_ROOT.parent / "shared" / "eval"
NOW = datetime(2026, 10, 14, 9, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
                  ) -> Iterator[None]:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@example.invalid")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@example.invalid")
    monkeypatch.delenv("MEMREPO_STORE", raising=False)
    yield


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.init(tmp_path / "store", durable=False)


def message(text: str, *, mid: str = "m1", tenant: str = "t1", author: str | None = "u1",
            role: str = "user", origin: str = "user", conversation: str = "c1",
            created: str = "2026-10-14T08:00:00Z") -> Message:
    return Message.model_validate({
        "messageId": mid, "tenantId": tenant, "conversationId": conversation,
        "authorId": author, "role": role, "origin": origin, "text": text,
        "createdAt": created,
    })


def proposal(msg: Message, quote: str, *, key: str = "package_manager", kind: str = "preference",
             value: Any = "pnpm", subject: str = "u1", confidence: float = 0.9,
             scope: dict[str, str] | None = None, **extra: Any) -> dict[str, Any]:
    start = msg.text.index(quote)
    return {
        "tenantId": msg.tenant_id, "subjectId": subject,
        "scope": scope or {"kind": "global", "key": "default"}, "kind": kind,
        "normalizedKey": key, "value": value,
        "evidence": {"messageId": msg.message_id, "start": start, "end": start + len(quote),
                     "sha256": canonical.evidence_hash(quote)},
        "confidence": confidence, **extra,
    }


def git_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("GIT_DIR", None)
    return env


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def said(store: Store, mid: str, text: str, quote: str, value: Any, *,
         key: str = "package_manager", now: Any = NOW, **extra: Any) -> Decision:
    """Ingest a message and run one proposal quoting it through the gate."""
    msg = message(text, mid=mid)
    store.tenant("t1", create=True).ingest([msg])
    return gate.submit(store, proposal(msg, quote, key=key, value=value, **extra), now=now)
