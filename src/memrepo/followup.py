"""Facts taken back after they were committed: a later message re-opens the decision.

The gate reads the whole stored conversation, so "Remember I use pnpm" followed by
"scratch that" never commits when both messages are there when it decides. In a live
conversation the order is the other way round: the fact is committed at once, and the
user's "scratch that", "take the Zed part back" or "我是在吐槽" arrives a minute later.
Leaving the fact in place would store exactly what the user withdrew.

So when new messages are stored, :func:`recheck` looks at the facts committed from the
same author's recent messages in that conversation and analyses each one's evidence again,
once with the conversation as it stood before the new message and once with it. A fact is
revoked when the new message is what makes it retracted or ironic (a name in the
retraction decides which of several facts it takes back, exactly as in the gate); a
flag already raised without the new message (a rule that changed since the decision)
never revokes anything. The revocation is an ordinary commit on ``main`` naming the later
message, so ``git log`` shows who took what back and ``memrepo rollback`` undoes it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from . import analysis, lifecycle
from .proposal import Fact, FactStatus, Message
from .store import State, Store, TenantRepo

#: The operator named on revocations made here.
OPERATOR = "gate-followup"
#: How many of the author's earlier messages a new one can take back. A retraction
#: refers to what was just said; reaching further back would let "forget it" about a
#: topic of an hour ago revoke an unrelated fact.
REACH = 3
#: Flags of the evidence analysis that a later message can raise.
TAKEN_BACK = ("retracted", "sarcastic")


@dataclass(frozen=True)
class TakenBack:
    """One fact revoked because a later message took it back."""

    memory_id: str
    evidence_message: str
    later_message: str
    cues: tuple[str, ...]
    commit: str | None

    def to_json(self) -> dict[str, object]:
        return {"memoryId": self.memory_id, "evidenceMessage": self.evidence_message,
                "laterMessage": self.later_message, "cues": list(self.cues),
                "commit": self.commit}


def recheck(store: Store, tenant_id: str, message_ids: Iterable[str], *,
            now: datetime | None = None) -> list[TakenBack]:
    """Revoke the facts that the stored messages ``message_ids`` take back.

    Call it after :meth:`memrepo.store.TenantRepo.ingest` with the ids it returned (the
    CLI's ``ingest`` does). Safe to call again: a revoked fact is not revoked twice. Each
    conversation is read once per call, so a bulk ingest stays linear in its size.
    """
    tenant = store.tenant(tenant_id)
    conversations: dict[str, list[Message]] = {}
    out: list[TakenBack] = []
    for message_id in message_ids:
        state = tenant.state()
        later = tenant.message(message_id, state)
        if later is None or later.role != "user" or later.origin != "user":
            continue
        conversation = conversations.get(later.conversation_id)
        if conversation is None:
            conversation = tenant.conversation(later.conversation_id, state)
            conversations[later.conversation_id] = conversation
        here = bisect_left(conversation, _order(later), key=_order)
        for evidence in _earlier(conversation, here, later):
            if not _about(later.text, evidence.text):
                continue
            for fact in _facts_from(tenant, evidence, state):
                cues = _newly_raised(tenant, fact, evidence, conversation[:here], later, state)
                if not cues:
                    continue
                done = lifecycle.revoke(
                    store, tenant_id, fact=lifecycle.FactRef.of(fact), operator=OPERATOR,
                    reason=f"taken back in a later message ({', '.join(cues)})",
                    now=now, version=fact.version,
                    trailers=(("Later-Message", later.message_id),))
                if done.revoked:
                    out.append(TakenBack(fact.memory_id, evidence.message_id,
                                         later.message_id, cues, done.commit))
    return out


#: A later message with no more words than this ("scratch that", "lol no", "呵呵。", "oops
#: wrong chat", 刚才那个别记了) can only be a reaction to what was just said.
BARE = 1


def _about(later: str, evidence: str) -> bool:
    """Can ``later`` be about what ``evidence`` said: it shares a word with it, or it is a
    bare reaction? The analysis takes a retraction that names something found nowhere to
    mean the value ("never mind the weather, what's for lunch?"), and irony anywhere in a
    message to be about its facts ("ugh, my laptop died again 🙄"); that errs safely while
    a proposal waits, but a committed fact must not be revoked by talk about other things."""
    words = analysis.content_words(later)
    return len(words) <= BARE or bool(words & analysis.content_words(evidence))


def _order(m: Message) -> tuple[datetime, str]:
    """Conversation order, as :meth:`memrepo.store.TenantRepo.conversation` sorts it."""
    return m.created_at, m.message_id


def _earlier(conversation: Sequence[Message], here: int, later: Message) -> list[Message]:
    """The author's last REACH user messages before position ``here``, latest first."""
    found: list[Message] = []
    for i in range(here - 1, -1, -1):
        m = conversation[i]
        if m.author_id == later.author_id and m.role == "user":
            found.append(m)
            if len(found) == REACH:
                break
    return found


def _facts_from(tenant: TenantRepo, evidence: Message, state: State) -> list[Fact]:
    """Active facts whose current version rests on ``evidence`` as its quoted source."""
    facts = [tenant.fact_at(path, state)
             for path in tenant.derived_paths(evidence.message_id, state)]
    return [f for f in facts if f is not None and f.status is FactStatus.ACTIVE
            and f.evidence.message_id == evidence.message_id]


def _newly_raised(tenant: TenantRepo, fact: Fact, evidence: Message,
                  upto: Sequence[Message], later: Message, state: State) -> tuple[str, ...]:
    """Cues of the flags in TAKEN_BACK that ``later`` raises on the fact's evidence."""
    aliases = tenant.policy(state).aliases_for(fact.kind, fact.normalized_key)

    def judged(conversation: Sequence[Message]) -> analysis.Analysis:
        return analysis.analyse(
            evidence.text, fact.evidence.start, fact.evidence.end, fact.value,
            aliases=aliases, conversation=conversation, message_id=evidence.message_id,
            author_id=fact.subject_id)

    before, after = judged(upto), judged([*upto, later])
    raised = [flag for flag in TAKEN_BACK if getattr(after, flag) and not getattr(before, flag)]
    return tuple(c for c in after.cues if c.split(":", 1)[0] in raised)
