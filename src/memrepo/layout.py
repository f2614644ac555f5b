"""Where things live inside a store and inside each tenant's repository (pure).

Every id that arrives in a request goes through :func:`component` before it becomes
part of a path. Plain ids (lower-case ASCII letters, digits, ``.``, ``_``, ``-``, not
starting with a dot, at most 64 characters) are used as they are so that ``git log -p``
reads naturally; any other id becomes ``_<ascii-slug>.<hash>``. Plain ids never start
with ``_``, so the mapping is injective: ``../x``, ``a/b``, look-alike Unicode and
10 KB strings each get a folder name of their own that cannot leave its parent.

Tree of ``refs/heads/main`` (approved changes only)::

    policy.json
    facts/<fan(subject)>/<subject>/<scope.kind>@<scope.key>/<kind>@<key>.json
    ids/<mid[:2]>/<mid[2:4]>/<memoryId>             -> fact path (memoryId lookup)
    proposals/<pid[:2]>/<pid[2:4]>/<proposalId>.json  immutable proposal records
    messages/<fan(messageId)>/<messageId>.json      source messages of committed facts
    messages/<fan(messageId)>/<messageId>.derived/<memoryId> -> fact path (revoke by message)

Tree of ``refs/memrepo/audit`` (everything that is not an approved change)::

    messages/…  conversations/<fan(conv)>/<conv>/<messageId>.json   ingested messages
    proposals/<pid[:2]>/<pid[2:4]>/<proposalId>.json  parked, rejected, declined records
    pending/<mid[:2]>/<mid[2:4]>/<memoryId>/<proposalId>.json   parked proposals by fact
    invalid/<h[:2]>/<h[2:4]>/<h>.json                proposals that failed validation

``fan(x)`` is two levels of two hex digits (``ab/cd``), like the id-based folders: every
commit rewrites the trees on its paths, so no folder a commit passes through may grow
with the number of facts, messages or proposals. With 65,536 leaves, a folder holds ~15
entries at a million (subjects, messages, memoryIds, proposals) instead of ~3,900 with
one level, where rewriting ``ids/<xx>`` alone cost a 230 KB tree per new fact.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping

from . import canonical

MAIN_REF = "refs/heads/main"
AUDIT_REF = "refs/memrepo/audit"
POLICY_PATH = "policy.json"

_PLAIN = re.compile(r"[a-z0-9_-][a-z0-9._-]{0,63}")
_SLUG_DROP = re.compile(r"[^a-z0-9]+")
_HEX64 = re.compile(r"[0-9a-f]{64}")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def component(raw: str) -> str:
    """A single, safe, collision-free path component for an id from a request."""
    if _PLAIN.fullmatch(raw) and not raw.startswith("_"):
        return raw
    ascii_form = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode().lower()
    slug = _SLUG_DROP.sub("-", ascii_form).strip("-")[:32] or "id"
    return f"_{slug}.{_digest(raw)[:20]}"


def fan(raw: str) -> str:
    """``ab/cd``: two levels of two hex characters that spread large folders (subjects,
    messages, conversations) into 65,536."""
    digest = _digest(raw)
    return f"{digest[:2]}/{digest[2:4]}"


def tenant_dir(tenant_id: str) -> str:
    return component(tenant_id) + ".git"


def memory_id(tenant_id: str, subject_id: str, scope: Mapping[str, str], kind: str,
              normalized_key: str) -> str:
    """Deterministic id of a fact slot: the same subject/scope/kind/key is one memory."""
    identity = {
        "tenantId": tenant_id,
        "subjectId": subject_id,
        "scope": {"kind": scope["kind"], "key": scope["key"]},
        "kind": kind,
        "normalizedKey": normalized_key,
    }
    return canonical.sha256_hex(canonical.jcs(identity))[:32]


def subject_dir(subject_id: str) -> str:
    return f"facts/{fan(subject_id)}/{component(subject_id)}"


def fact_path(subject_id: str, scope: Mapping[str, str], kind: str, normalized_key: str) -> str:
    """``facts/ab/cd/u-mia/global@default/preference@editor.json``.

    A scope and a fact's kind and key are each one name joined by ``@`` rather than a
    folder per part: every folder on the path is a tree each commit to the fact rewrites,
    and a new subject's folders are small new trees that git stores whole, so two folders
    fewer cost ~120 B less per fact version in a history of new subjects (store format 4).
    :func:`component` never yields ``@``, so the joined names stay injective.
    """
    return "/".join(
        (
            subject_dir(subject_id),
            f"{component(scope['kind'])}@{component(scope['key'])}",
            f"{component(kind)}@{component(normalized_key)}.json",
        )
    )


def id_index_path(mid: str) -> str:
    return f"ids/{mid[:2]}/{mid[2:4]}/{mid}"


def _check_pid(pid: str) -> str:
    if not _HEX64.fullmatch(pid):
        raise ValueError(f"not a proposal id: {pid!r}")
    return pid


def proposal_path(pid: str) -> str:
    _check_pid(pid)
    return f"proposals/{pid[:2]}/{pid[2:4]}/{pid}.json"


def pending_dir(mid: str) -> str:
    return f"pending/{mid[:2]}/{mid[2:4]}/{mid}"


def pending_path(mid: str, pid: str) -> str:
    return f"{pending_dir(mid)}/{_check_pid(pid)}.json"


def message_path(message_id: str) -> str:
    return f"messages/{fan(message_id)}/{component(message_id)}.json"


def conversation_dir(conversation_id: str) -> str:
    return f"conversations/{fan(conversation_id)}/{component(conversation_id)}"


def conversation_message_path(conversation_id: str, message_id: str) -> str:
    return f"{conversation_dir(conversation_id)}/{component(message_id)}.json"


def invalid_path(digest: str) -> str:
    return f"invalid/{digest[:2]}/{digest[2:4]}/{digest}.json"


def derived_dir(message_id: str) -> str:
    """``messages/<fan>/<messageId>.derived/`` on main: every memory a message gave rise to.

    Next to the message's own file rather than in a ``derived/`` tree of its own: the
    commit that copies a message to main already rewrites ``messages/<fan>/``, so the
    index costs one new folder instead of three more rewritten ones (two of them 256
    entries wide). Names cannot collide: a message's file ends in ``.json``, its folder
    in ``.derived``, and :func:`component` is injective.
    """
    return f"messages/{fan(message_id)}/{component(message_id)}.derived"


def derived_path(message_id: str, mid: str) -> str:
    return f"{derived_dir(message_id)}/{mid}"


def derived_memory_id(path: str) -> str | None:
    """The memoryId a :func:`derived_path` names, or ``None`` for any other path."""
    parts = path.split("/")
    if len(parts) == 5 and parts[0] == "messages" and parts[3].endswith(".derived"):
        return parts[4]
    return None
