"""A later message takes back a committed fact: followup.recheck on real repositories."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import NOW, message, proposal
from memrepo import _git, followup, gate, recall
from memrepo.cli import cli
from memrepo.proposal import DecisionKind, Message
from memrepo.store import Store


def _at(minute: int) -> str:
    return f"2026-10-14T08:{minute:02d}:00Z"


def _committed(store: Store, text: str, facts: list[tuple[str, str, Any]], *,
               mid: str = "m1") -> Message:
    """Ingest ``text`` and commit one fact per (quote, key, value) from it."""
    msg = message(text, mid=mid, created=_at(0))
    store.tenant("t1", create=True).ingest([msg])
    for quote, key, value in facts:
        d = gate.submit(store, proposal(msg, quote, key=key, value=value), now=NOW)
        assert d.decision is DecisionKind.COMMIT, d
    return msg


def _later(store: Store, text: str, *, mid: str = "m3", minute: int = 2,
           author: str | None = "u1", role: str = "user", origin: str = "user",
           reply: str = "Got it, saved.") -> list[followup.TakenBack]:
    ack = message(reply, mid=f"{mid}-ack", author=None, role="assistant",
                  origin="assistant", created=_at(minute - 1))
    later = message(text, mid=mid, author=author, role=role, origin=origin,
                    created=_at(minute))
    stored = store.tenant("t1").ingest([ack, later])
    return followup.recheck(store, "t1", stored, now=NOW)


def _values(store: Store) -> dict[str, Any]:
    return {f.normalized_key: f.value for f in recall.recall(store, "t1", "u1", now=NOW)}


def test_scratch_that_after_the_commit_revokes_the_fact(store: Store) -> None:
    _committed(store, "Remember that I use pnpm for packages.",
               [("Remember that I use pnpm", "package_manager", "pnpm")])
    taken = _later(store, "scratch that")
    assert [(t.evidence_message, t.later_message) for t in taken] == [("m1", "m3")]
    assert any(c.startswith("retracted:en:") for c in taken[0].cues)
    assert _values(store) == {}
    tenant = store.tenant("t1")
    head = tenant.repo[_git.resolve(tenant.repo, "refs/heads/main")]
    assert "Later-Message: m3" in head.message and "Operator: gate-followup" in head.message
    # History and evidence stay: the commit that stored the fact is still an ancestor.
    assert len(list(tenant.repo.walk(head.id))) >= 3


@pytest.mark.parametrize("text", ["scratch that, thanks!", "算了 当我没说 谢谢"])
def test_a_retraction_with_a_closing_thanks_still_revokes(store: Store, text: str) -> None:
    _committed(store, "Remember that I use pnpm for packages.",
               [("Remember that I use pnpm", "package_manager", "pnpm")])
    assert [t.later_message for t in _later(store, text)] == ["m3"]
    assert _values(store) == {}


def test_a_named_retraction_takes_back_only_what_it_names(store: Store) -> None:
    _committed(store, "Remember: my editor is Zed and I use pnpm for packages.",
               [("my editor is Zed", "editor", "Zed"), ("I use pnpm", "package_manager", "pnpm")])
    taken = _later(store, "hmm, take the Zed part back")
    assert len(taken) == 1
    assert _values(store) == {"package_manager": "pnpm"}


def test_irony_in_the_next_message_revokes_the_fact(store: Store) -> None:
    _committed(store, "Remember that my usual drink is a triple espresso at 11pm.",
               [("my usual drink is a triple espresso", "drink", "triple espresso")])
    assert _later(store, "Oh absolutely, nothing beats espresso at midnight. 🙄")
    assert _values(store) == {}


def test_chinese_retraction_later(store: Store) -> None:
    _committed(store, "记住，我用 pnpm 管理依赖。", [("我用 pnpm", "package_manager", "pnpm")])
    assert _later(store, "算了，刚才那个别记了")
    assert _values(store) == {}


def test_an_unrelated_later_message_changes_nothing(store: Store) -> None:
    _committed(store, "Remember that I use pnpm for packages.",
               [("Remember that I use pnpm", "package_manager", "pnpm")])
    tip = store.tenant("t1").state().main
    assert _later(store, "Thanks! Now can you help me plan the week?") == []
    # A withdrawal of something the assistant offered in between is about that offer.
    assert _later(store, "算了，样例不用了，我自己写。", mid="m5", minute=4,
                  reply="好的。要不要我顺便生成几个测试样例？") == []
    assert store.tenant("t1").state().main == tip
    assert _values(store) == {"package_manager": "pnpm"}


@pytest.mark.parametrize("text", [
    "Never mind the weather, what's for lunch?",
    "actually, ignore the last error, it was a typo",
    "ugh, my laptop died again 🙄",
    "great, another meeting. just what I needed",
    "算了，今天不加班了，我们去吃火锅吧",
])
def test_talk_about_other_things_takes_nothing_back(store: Store, text: str) -> None:
    """The analysis reads a retraction naming something found nowhere as meaning the value,
    and irony anywhere in a message as about its facts: fine while a proposal waits, not
    enough to revoke a committed fact."""
    _committed(store, "Remember that I use pnpm for packages.",
               [("Remember that I use pnpm", "package_manager", "pnpm")])
    assert _later(store, text) == []
    assert _values(store) == {"package_manager": "pnpm"}


def test_someone_elses_or_a_tools_words_take_nothing_back(store: Store) -> None:
    _committed(store, "Remember that I use pnpm for packages.",
               [("Remember that I use pnpm", "package_manager", "pnpm")])
    assert _later(store, "scratch that", author="u2") == []
    assert _later(store, "scratch that", mid="m5", minute=4, author=None, role="tool",
                  origin="tool") == []
    assert _values(store) == {"package_manager": "pnpm"}


def test_a_batch_of_later_messages_is_judged_message_by_message(store: Store) -> None:
    """One recheck over several new messages of one conversation (a bulk ingest): each is
    judged against the conversation up to itself."""
    _committed(store, "Remember that I use pnpm for packages.",
               [("Remember that I use pnpm", "package_manager", "pnpm")])
    msgs = [message("Got it, saved.", mid="a1", author=None, role="assistant",
                    origin="assistant", created=_at(1)),
            message("Thanks! Can you help me plan the week?", mid="m2", created=_at(2)),
            message("scratch that", mid="m3", created=_at(3))]
    stored = store.tenant("t1").ingest(msgs)
    taken = followup.recheck(store, "t1", stored, now=NOW)
    assert [(t.evidence_message, t.later_message) for t in taken] == [("m1", "m3")]
    assert _values(store) == {}


def test_recheck_twice_revokes_once(store: Store) -> None:
    _committed(store, "Remember that I use pnpm for packages.",
               [("Remember that I use pnpm", "package_manager", "pnpm")])
    assert len(_later(store, "scratch that")) == 1
    tip = store.tenant("t1").state().main
    assert followup.recheck(store, "t1", ["m3"], now=NOW) == []
    assert store.tenant("t1").state().main == tip


def test_cli_ingest_takes_back_and_says_so(store: Store, tmp_path: Any) -> None:
    _committed(store, "Remember that I use pnpm for packages.",
               [("Remember that I use pnpm", "package_manager", "pnpm")])
    later = message("scratch that", mid="m3", created=_at(2))
    path = tmp_path / "later.jsonl"
    path.write_text(json.dumps(later.to_json()) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["--store", str(store.root), "--no-fsync", "ingest",
                                      str(path)])
    assert result.exit_code == 0, result.output
    assert "ingested 1 new message(s)" in result.output
    assert "took back 1 fact(s)" in result.output
    assert _values(store) == {}
