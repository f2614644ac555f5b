"""Re-reading the source: does the evidence exist, say what the proposal claims, and
come from the subject? (pure; the gate fetches the message, this module judges it)

Authorship and origin are taken from the stored message, never from the proposal: a
message written by a tool, a web page or the assistant is tainted whatever an
extractor says about it.
"""

from __future__ import annotations

from . import canonical
from .proposal import MemoryProposal, Message, Origin, Role

#: Message origins whose words can never become a fact about the subject by themselves.
TAINTED_ORIGINS = frozenset({Origin.TOOL, Origin.WEB, Origin.ASSISTANT})


def verify(proposal: MemoryProposal, message: Message | None) -> tuple[str, ...]:
    """Reject reasons for the proposal's evidence; empty when it checks out."""
    if message is None:
        return ("message_not_found",)
    reasons: list[str] = []
    if message.tenant_id != proposal.tenant_id:
        reasons.append("cross_tenant")
    ev = proposal.evidence
    if ev.end > len(message.text):
        reasons.append("evidence_out_of_range")
    elif canonical.evidence_hash(message.text[ev.start : ev.end]) != ev.sha256:
        reasons.append("evidence_hash_mismatch")
    if message.origin in TAINTED_ORIGINS:
        reasons.append(f"tainted_origin_{message.origin.value}")
    if message.role is not Role.USER:
        reasons.append(f"not_user_message_{message.role.value}")
    if message.author_id is None or message.author_id != proposal.subject_id:
        reasons.append("author_not_subject")
    return tuple(reasons)


def span(proposal: MemoryProposal, message: Message) -> str:
    return message.text[proposal.evidence.start : proposal.evidence.end]
