"""Gate throughput beside a raw pygit2 loop, and read latencies, at growing store sizes.

What it answers: how much does the write gate (parse, replay check, evidence re-read,
analysis, policy, secrets scan, commit with compare-and-swap) cost over the git work
it cannot avoid, and does that cost stay flat as a tenant grows to 100k facts?

For each size the script seeds one tenant in bulk (one commit, one pack, written with
pygit2 in the layout of :mod:`memrepo.layout`: facts of 10 keys per subject, the id
index, proposal records, source messages, derived index, and the ingested messages and
conversations on the audit ref). Then, for durable=False and durable=True, it submits
``--commits`` explicit "remember" proposals for new fact keys through
:func:`memrepo.gate.submit`, interleaved in blocks with a raw loop that writes the same
objects (fact, record, message and two index blobs, the same trees, one commit, one
ref update with reflog) as loose objects in a copy of the seeded repository, from the
same tip, so both rewrite the same trees. The raw loop's blob bytes are serialised
before timing: the ratio therefore includes everything the gate does besides the object
writes and the ref update. See bench/README.md for the rest (stages, split, profile).

Not a test: it prints figures. ``--json`` prints them as one JSON document.

    .venv/bin/python bench/bench_gate.py                       # 0, 10k, 100k facts, ~12 min
    .venv/bin/python bench/bench_gate.py --quick               # smoke run, ~1 min
    .venv/bin/python bench/bench_gate.py --sizes 10000 --profile 300
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import math
import os
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pygit2

from memrepo import (
    _git,
    analysis,
    canonical,
    evidence,
    gate,
    groupcommit,
    layout,
    maintenance,
    recall,
    secrets,
)
from memrepo.policy import parse_policy
from memrepo.proposal import (
    DecisionKind,
    Fact,
    FactSource,
    Message,
    format_time,
    parse_proposal,
)
from memrepo.store import GATE_AUTHOR, Batch, Store, TenantRepo

TENANT = "bench"
NOW = datetime(2026, 10, 14, 9, 0, tzinfo=UTC)
CREATED = "2026-10-14T08:00:00Z"
GLOBAL = {"kind": "global", "key": "default"}
#: Seeded subjects each get one fact per key below (package_manager is left free: the
#: timed proposals use it).
SEED_KEYS = (
    ("preference", "editor"), ("preference", "reply_language"), ("preference", "reply_style"),
    ("preference", "drink"), ("preference", "diet"), ("preference", "indent_style"),
    ("decision", "database"), ("decision", "deploy_target"), ("decision", "api_style"),
    ("decision", "test_framework"),
)
FACTS_PER_SUBJECT = len(SEED_KEYS)
BLOB = pygit2.GIT_FILEMODE_BLOB
TREE = pygit2.GIT_FILEMODE_TREE


# -- documents in the store's own shapes -------------------------------------------------


def message_doc(mid: str, subject: str, conversation: str, text: str) -> Message:
    return Message.model_validate({
        "messageId": mid, "tenantId": TENANT, "conversationId": conversation,
        "authorId": subject, "role": "user", "origin": "user", "text": text,
        "createdAt": CREATED,
    })


def proposal_doc(msg: Message, subject: str, kind: str, key: str, value: str,
                 quote: str) -> dict[str, Any]:
    """A wire proposal whose evidence is ``quote`` inside ``msg``."""
    start = msg.text.index(quote)
    return {
        "tenantId": TENANT, "subjectId": subject, "scope": dict(GLOBAL), "kind": kind,
        "normalizedKey": key, "value": value,
        "evidence": {"messageId": msg.message_id, "start": start, "end": start + len(quote),
                     "sha256": canonical.evidence_hash(quote)},
        "confidence": 0.9,
    }


@dataclass(frozen=True)
class Written:
    """The blobs one committed fact puts on main, serialised, and where they go."""

    pid: str
    fact_path: str
    blobs: tuple[tuple[str, bytes], ...]  # (path, bytes) in the gate's write order
    message_json: bytes
    commit_message: str


def committed(msg: Message, proposal: Mapping[str, Any], stamp: str) -> Written:
    """What the gate writes for a new fact from ``proposal``, built without the gate."""
    subject, kind, key = proposal["subjectId"], proposal["kind"], proposal["normalizedKey"]
    ev = proposal["evidence"]
    pid = canonical.proposal_id(
        tenant_id=TENANT, subject_id=subject, scope=GLOBAL, kind=kind, normalized_key=key,
        message_id=msg.message_id, start=ev["start"], end=ev["end"])
    phash = canonical.payload_hash(value=proposal["value"], confidence=proposal["confidence"],
                                   expires_at=None, evidence_hash=ev["sha256"])
    mid = layout.memory_id(TENANT, subject, GLOBAL, kind, key)
    path = layout.fact_path(subject, GLOBAL, kind, key)
    fact = Fact.model_validate({
        "memoryId": mid, "version": 1, "tenantId": TENANT, "subjectId": subject,
        "scope": GLOBAL, "kind": kind, "normalizedKey": key, "value": proposal["value"],
        "source": FactSource.USER_EXPLICIT.value, "evidence": ev,
        "derivedFrom": [msg.message_id], "proposalId": pid, "payloadHash": phash,
        "confidence": proposal["confidence"], "createdAt": stamp, "updatedAt": stamp,
        "operator": "gate",
    })
    quote = msg.text[ev["start"]:ev["end"]]
    reasons = ["explicit_instruction", "auto_tier", "grounded", "evidence_verified"]
    record = {
        "proposalId": pid, "payloadHash": phash, "proposal": dict(proposal, proposalId=pid),
        "decision": "COMMIT", "reasons": reasons, "status": "committed", "memoryId": mid,
        "factPath": path, "policyVersion": "0" * 16, "decidedAt": stamp,
        "evidenceQuote": quote, "conversationId": msg.conversation_id, "base": None,
        "analysis": {"cues": ["remember"], "lang": "en"}, "version": 1,
    }
    message_json = canonical.dumps_pretty(msg.to_json())
    blobs = (
        (layout.proposal_path(pid), canonical.dumps_pretty(record)),
        (layout.message_path(msg.message_id), message_json),
        (path, canonical.dumps_pretty(fact.to_json())),
        (layout.derived_path(msg.message_id, mid), path.encode()),
        (layout.id_index_path(mid), path.encode()),
    )
    text = (
        f"remember {kind}/{key} = {json.dumps(proposal['value'])} for {subject}\n\n"
        f"Subject {subject}, scope global/default, version 1 (new).\n"
        f"Evidence {msg.message_id}[{ev['start']}:{ev['end']}]: {json.dumps(quote)}\n"
        f"Reasons: {', '.join(reasons)}\n\n"
        f"Proposal-Id: {pid}\nPayload-Hash: {phash}\nMemory-Id: {mid}\nFact-Version: 1\n"
        f"Op: create\nDecision: COMMIT\nPolicy-Version: {'0' * 16}\nOperator: gate\n"
        f"Tenant-Id: {TENANT}\nSubject-Id: {subject}\nSource-Message: {msg.message_id}\n"
        f"Conversation-Id: {msg.conversation_id}\n"
    )
    return Written(pid, path, blobs, message_json, text)


# -- raw pygit2 -------------------------------------------------------------------------


def nest(changes: Iterable[tuple[str, pygit2.Oid]]) -> dict[str, Any]:
    root: dict[str, Any] = {}
    for path, oid in changes:
        *dirs, name = path.split("/")
        node = root
        for part in dirs:
            node = node.setdefault(part, {})
        node[name] = oid
    return root


def write_tree(repo: pygit2.Repository, base: pygit2.Tree | None, node: Mapping[str, Any]
               ) -> pygit2.Oid:
    """``base`` with ``node`` applied; rewrites only the trees on changed paths."""
    builder = repo.TreeBuilder(base) if base is not None else repo.TreeBuilder()
    for name, child in node.items():
        if isinstance(child, dict):
            sub = None
            if base is not None and name in base:
                sub = repo[base[name].id]
            builder.insert(name, write_tree(repo, sub, child), TREE)
        else:
            builder.insert(name, child, BLOB)
    return builder.write()


def raw_commit(repo: pygit2.Repository, parent: pygit2.Oid, ref: str, w: Written,
               stamp: int, split: Split | None = None) -> pygit2.Oid:
    """The floor: the gate's object writes and ref update for one new fact, nothing else."""
    t0 = time.perf_counter()
    changes = [(path, repo.create_blob(data)) for path, data in w.blobs]
    t1 = time.perf_counter()
    tree = write_tree(repo, repo[parent].tree, nest(changes))
    t2 = time.perf_counter()
    sig = pygit2.Signature(GATE_AUTHOR.name, GATE_AUTHOR.email, stamp, 0)
    commit = repo.create_commit(None, sig, sig, w.commit_message, tree, [parent])
    t3 = time.perf_counter()
    repo.references[ref].set_target(commit, w.commit_message.splitlines()[0])
    if split is not None:
        t4 = time.perf_counter()
        for name, dt in zip(RAW_LABELS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            split.add(name, dt)
    return commit


RAW_LABELS = ("raw: 5 blobs", "raw: trees", "raw: commit", "raw: ref update")


class Split:
    """Wall time per named part of a run, inclusive of what it calls (~1 µs per call)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}

    def add(self, name: str, seconds: float) -> None:
        self.seconds[name] = self.seconds.get(name, 0.0) + seconds
        self.calls[name] = self.calls.get(name, 0) + 1

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.add(name, time.perf_counter() - t0)
        return timed


#: What the split run wraps: (owner, attribute, label); indentation shows nesting.
SPLIT_TARGETS: tuple[tuple[Any, str, str], ...] = (
    (gate, "submit", "gate.submit"),
    (gate, "parse_proposal", "  parse_proposal"),
    (groupcommit, "submit", "  groupcommit.submit"),
    (gate, "decide_batch", "    gate.decide_batch"),
    (TenantRepo, "state", "      state()"),
    (TenantRepo, "record", "      record() replay check"),
    (gate, "assess", "      assess()"),
    (TenantRepo, "policy", "        policy() read+parse"),
    (TenantRepo, "message", "        message()"),
    (TenantRepo, "conversation", "        conversation()"),
    (secrets, "find_secrets", "        secrets.find_secrets (span)"),
    (secrets, "find_secrets_in_value", "        secrets.find_secrets_in_value"),
    (analysis, "analyse", "        analysis.analyse()"),
    (TenantRepo, "fact_at", "        fact_at()"),
    (TenantRepo, "pending_for", "        pending_for()"),
    (gate, "decide", "        policy.decide()"),
    (gate, "commit_fact", "      commit_fact()"),
    (TenantRepo, "blob", "        blob(): JSON + write"),
    (TenantRepo, "commit", "        store.commit() (staged)"),
    (_git, "edit_tree", "          _git.edit_tree"),
    (_git, "create_commit", "          _git.create_commit"),
    (Batch, "publish", "      Batch.publish"),
    (_git, "write_pack", "        _git.write_pack"),
    (_git, "compare_and_swap", "        _git.compare_and_swap"),
    (maintenance, "after_publish", "        maintenance.after_publish"),
)


@contextmanager
def instrumented(split: Split) -> Iterator[None]:
    saved = [(owner, attr, getattr(owner, attr)) for owner, attr, _ in SPLIT_TARGETS]
    try:
        for (owner, attr, label), (_, _, original) in zip(SPLIT_TARGETS, saved, strict=True):
            setattr(owner, attr, split.wrap(label, original))
        yield
    finally:
        for owner, attr, original in saved:
            setattr(owner, attr, original)


# -- seeding ----------------------------------------------------------------------------


@dataclass
class Seeded:
    facts: int
    subjects: list[str]
    pids: list[str]
    seconds: float
    main: pygit2.Oid
    audit: pygit2.Oid | None
    #: A copy of the seeded repository for the raw loop, so that its loose objects and
    #: the gate's packs (and the background repacks they trigger) never meet.
    raw_path: Path | None = None


def seed(tenant: TenantRepo, n: int, *, loose: bool) -> Seeded:
    """Write ``n`` committed facts (10 per subject) as one commit on main and one on audit.

    By default every object goes into one pack (no deltas), written the way the gate
    writes its batches, so the store looks like one the library keeps packed; ``loose``
    writes loose objects instead (as the gate did before it packed its batches).
    """
    t0 = time.perf_counter()
    disk = tenant.repo
    staging = None if loose else _git.open_staging(tenant.path)
    repo = disk if staging is None else staging.repo
    stamp = format_time(NOW)
    main: dict[str, pygit2.Oid] = {}
    audit: dict[str, pygit2.Oid] = {}
    subjects: list[str] = []
    pids: list[str] = []
    for i in range(n):
        j, k = divmod(i, FACTS_PER_SUBJECT)
        subject = f"user-{j:06d}"
        if k == 0:
            subjects.append(subject)
        kind, key = SEED_KEYS[k]
        value = f"{key.replace('_', '-')}-{i}"
        conv = f"conv-{subject}"
        text = f"Remember that my {key.replace('_', ' ')} is {value}."
        msg = message_doc(f"msg-{i:07d}", subject, conv, text)
        w = committed(msg, proposal_doc(msg, subject, kind, key, value, text[:-1]), stamp)
        pids.append(w.pid)
        for path, data in w.blobs:
            main[path] = repo.create_blob(data)
        msg_oid = main[layout.message_path(msg.message_id)]
        audit[layout.message_path(msg.message_id)] = msg_oid
        audit[layout.conversation_message_path(conv, msg.message_id)] = msg_oid
    state = tenant.state()
    assert state.main is not None and state.main_tree is not None
    sig = pygit2.Signature(GATE_AUTHOR.name, GATE_AUTHOR.email, int(NOW.timestamp()), 0)
    main_tree = write_tree(repo, repo[state.main_tree.id], nest(main.items()))
    main_tip = repo.create_commit(None, sig, sig, f"bench: seed {n} facts\n", main_tree,
                                  [state.main])
    audit_tip = None
    if audit:
        audit_tree = write_tree(repo, None, nest(audit.items()))
        audit_tip = repo.create_commit(None, sig, sig, f"ingest: {n} message(s)\n", audit_tree,
                                       [])
    if staging is not None:
        _git.write_pack(_git.pack_dir(disk), staging.objects, durable=False)
        staging.objects.clear()
    disk.references[layout.MAIN_REF].set_target(main_tip, "bench seed")
    if audit_tip is not None:
        disk.create_reference_direct(layout.AUDIT_REF, audit_tip, True, message="bench seed")
    return Seeded(n, subjects, pids, time.perf_counter() - t0, main_tip, audit_tip)


# -- timing -----------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return math.nan
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def latency(samples: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in samples]
    return {"n": len(ms), "p50_ms": percentile(ms, 0.50), "p99_ms": percentile(ms, 0.99),
            "mean_ms": statistics.fmean(ms) if ms else math.nan}


@dataclass
class CommitRun:
    facts: int
    durable: bool
    commits: int
    gate_seconds: float = 0.0
    raw_seconds: float = 0.0
    gate_cpu: float = 0.0
    raw_cpu: float = 0.0
    load: tuple[float, float] = (0.0, 0.0)
    packs: int = 0
    gate_samples: list[float] = field(default_factory=list)
    raw_samples: list[float] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        gate_rate = self.commits / self.gate_seconds
        raw_rate = self.commits / self.raw_seconds
        return {
            "facts": self.facts, "durable": self.durable, "commits": self.commits,
            "gate_commits_per_s": gate_rate, "raw_commits_per_s": raw_rate,
            "ratio_gate_over_raw": self.gate_seconds / self.raw_seconds,
            "ratio_cpu": self.gate_cpu / self.raw_cpu,
            "gate_cpu_ms_per_commit": 1000 * self.gate_cpu / self.commits,
            "raw_cpu_ms_per_commit": 1000 * self.raw_cpu / self.commits,
            "loadavg_1min": list(self.load),
            "gate_repo_packs_after": self.packs,
            "gate": latency(self.gate_samples), "raw": latency(self.raw_samples),
        }


def prepare(store: Store, tag: str, n: int) -> tuple[list[dict[str, Any]], list[Written]]:
    """``n`` proposals for new facts (ingested now, untimed) and ``n`` raw payloads."""
    tenant = store.tenant(TENANT)
    msgs, proposals, raws = [], [], []
    stamp = format_time(NOW)
    for i in range(n):
        value = f"pnpm-{i}"
        text = f"Remember that I use {value} as my package manager."
        subject = f"new-{tag}-{i:06d}"
        msg = message_doc(f"m-{tag}-{i:06d}", subject, f"c-{tag}-{i:06d}", text)
        msgs.append(msg)
        proposals.append(proposal_doc(msg, subject, "preference", "package_manager", value,
                                      text[:-1]))
        raw_subject = f"raw-{tag}-{i:06d}"
        raw_msg = message_doc(f"r-{tag}-{i:06d}", raw_subject, f"rc-{tag}-{i:06d}", text)
        raws.append(committed(raw_msg, proposal_doc(raw_msg, raw_subject, "preference",
                                                    "package_manager", value, text[:-1]), stamp))
    tenant.ingest(msgs)
    return proposals, raws


def run_commits(store: Store, seeded: Seeded, durable: bool, n: int, block: int, *,
                label: str = "", profile: cProfile.Profile | None = None,
                split: Split | None = None) -> CommitRun:
    """Gate and raw commits interleaved in blocks, alternating which goes first."""
    tag = f"{label}{'d' if durable else 'n'}{seeded.facts}"
    proposals, raws = prepare(store, tag, n)
    tenant = store.tenant(TENANT)
    # Both start from the seeded tip, so they rewrite trees of the same size.
    tenant.repo.references[layout.MAIN_REF].set_target(seeded.main, "bench reset")
    assert seeded.raw_path is not None
    repo = pygit2.Repository(str(seeded.raw_path))
    raw_ref = layout.MAIN_REF
    repo.references[raw_ref].set_target(seeded.main, "bench reset")
    run = CommitRun(seeded.facts, durable, n)
    raw_tip = seeded.main
    when = int(NOW.timestamp())

    def gate_block(items: list[dict[str, Any]]) -> None:
        for data in items:
            t0 = time.perf_counter()
            decision = gate.submit(store, data, now=NOW)
            run.gate_samples.append(time.perf_counter() - t0)
            if decision.decision is not DecisionKind.COMMIT:
                raise SystemExit(f"expected COMMIT, got {decision.decision}: {decision.reasons}")

    def raw_block(items: list[Written]) -> None:
        nonlocal raw_tip
        for w in items:
            t0 = time.perf_counter()
            raw_tip = raw_commit(repo, raw_tip, raw_ref, w, when, split)
            run.raw_samples.append(time.perf_counter() - t0)

    _git_fsync(durable)
    load0 = os.getloadavg()[0]
    for b, start in enumerate(range(0, n, block)):
        order = ("raw", "gate") if b % 2 else ("gate", "raw")
        for which in order:
            if which == "gate":
                with instrumented(split) if split is not None else nullcontext():
                    if profile is not None:
                        profile.enable()
                    t0, c0 = time.perf_counter(), time.process_time()
                    gate_block(proposals[start:start + block])
                    run.gate_seconds += time.perf_counter() - t0
                    run.gate_cpu += time.process_time() - c0
                    if profile is not None:
                        profile.disable()
            else:
                t0, c0 = time.perf_counter(), time.process_time()
                raw_block(raws[start:start + block])
                run.raw_seconds += time.perf_counter() - t0
                run.raw_cpu += time.process_time() - c0
    run.load = (load0, os.getloadavg()[0])
    run.packs = len(list((tenant.path / "objects" / "pack").glob("*.idx")))
    return run


def _git_fsync(durable: bool) -> None:
    # Store() sets this process-wide; say it again so the raw loop can never differ.
    pygit2.settings.enable_fsync_gitdir(durable)


def run_reads(store: Store, seeded: Seeded, samples: int, rng: random.Random
              ) -> dict[str, Any]:
    """Recall of one random subject, proposalId lookups (hit on main, miss), state()."""
    tenant = store.tenant(TENANT)
    out: dict[str, Any] = {"facts": seeded.facts}

    def timed(fn: Callable[[], Any], check: Callable[[Any], bool]) -> list[float]:
        for _ in range(min(50, samples)):  # warm the repository handle and caches
            fn()
        times = []
        for _ in range(samples):
            t0 = time.perf_counter()
            result = fn()
            times.append(time.perf_counter() - t0)
            if not check(result):
                raise SystemExit(f"unexpected read result: {result!r}")
        return times

    out["state"] = latency(timed(tenant.state, lambda s: s.main is not None))
    if seeded.subjects:
        subject = iter(rng.choice(seeded.subjects) for _ in range(10 * samples + 100))
        out["recall"] = latency(timed(
            lambda: recall.recall(store, TENANT, next(subject), now=NOW),
            lambda facts: len(facts) == FACTS_PER_SUBJECT))
        pid = iter(rng.choice(seeded.pids) for _ in range(10 * samples + 100))
        out["record_hit"] = latency(timed(
            lambda: tenant.record(next(pid), tenant.state()),
            lambda r: r is not None and r.on_main))
    missing = iter(f"{rng.getrandbits(256):064x}" for _ in range(10 * samples + 100))
    out["record_miss"] = latency(timed(
        lambda: tenant.record(next(missing), tenant.state()), lambda r: r is None))
    return out


def run_stages(store: Store, seeded: Seeded, n: int) -> dict[str, Any]:
    """Median cost of each step of one COMMIT decision, each called on its own."""
    tenant = store.tenant(TENANT)
    (data,), _ = prepare(store, f"s{seeded.facts}", 1)
    proposal = parse_proposal(data)
    state = tenant.state()
    policy = tenant.policy(state)
    policy_blob = tenant.repo[state.main_tree[layout.POLICY_PATH].id].data
    msg = tenant.message(proposal.evidence.message_id, state)
    assert msg is not None
    ev = proposal.evidence
    span = msg.text[ev.start:ev.end]
    conversation = tenant.conversation(msg.conversation_id, state)
    scope = proposal.scope.as_dict()
    path = layout.fact_path(proposal.subject_id, scope, proposal.kind, proposal.normalized_key)
    mid = layout.memory_id(TENANT, proposal.subject_id, scope, proposal.kind,
                           proposal.normalized_key)
    assessment = gate.assess(tenant, state, proposal, NOW)
    assert assessment.verdict.decision is DecisionKind.COMMIT, assessment.verdict
    seeded_fact = next(iter(tenant.facts(seeded.subjects[0], state)), None) \
        if seeded.subjects else None

    def serialise() -> None:
        record = gate.proposal_record(assessment, NOW, decision=DecisionKind.COMMIT,
                                      reasons=assessment.verdict.reasons, status="committed",
                                      version=1)
        canonical.dumps_pretty(record)
        canonical.dumps_pretty(msg.to_json())
        if seeded_fact is not None:
            canonical.dumps_pretty(seeded_fact.to_json())

    steps: dict[str, Callable[[], Any]] = {
        "parse_proposal (pydantic, proposalId)": lambda: parse_proposal(data),
        "payload_hash (recomputed on each access)": lambda: proposal.payload_hash,
        "state()": tenant.state,
        "record() miss (replay check)": lambda: tenant.record(proposal.id, state),
        "policy() as the gate calls it": lambda: tenant.policy(state).version,
        "  parse_policy(policy.json) + .version": lambda: parse_policy(policy_blob).version,
        "message()": lambda: tenant.message(ev.message_id, state),
        "conversation()": lambda: tenant.conversation(msg.conversation_id, state),
        "evidence.verify()": lambda: evidence.verify(proposal, msg),
        "secrets: value + evidence span": lambda: (secrets.find_secrets_in_value(proposal.value),
                                                   secrets.find_secrets(span)),
        "analysis.analyse()": lambda: analysis.analyse(
            msg.text, ev.start, ev.end, proposal.value,
            aliases=policy.aliases_for(proposal.kind, proposal.normalized_key),
            conversation=conversation, message_id=msg.message_id,
            author_id=proposal.subject_id),
        "fact_at() + pending_for()": lambda: (tenant.fact_at(path, state),
                                              tenant.pending_for(mid, state)),
        "assess() total": lambda: gate.assess(tenant, state, proposal, NOW),
        "record + message + fact JSON (dumps_pretty)": serialise,
    }
    steps.update(pack_steps(store, seeded))
    out: dict[str, float] = {}
    for name, fn in steps.items():
        for _ in range(min(20, n)):
            fn()
        times = []
        for _ in range(n):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        out[name] = 1000 * statistics.median(times)
    return {"facts": seeded.facts, "n": n, "median_ms": out}


def pack_steps(store: Store, seeded: Seeded) -> dict[str, Callable[[], Any]]:
    """The pack a lone gated commit publishes, written again, and its compression alone."""
    captured: list[dict[pygit2.Oid, tuple[int, bytes]]] = []
    original = _git.write_pack

    def capture(directory: Any, objects: Mapping[pygit2.Oid, tuple[int, bytes]], *,
                durable: bool) -> str | None:
        captured.append(dict(objects))
        return original(directory, objects, durable=durable)

    (data,), _ = prepare(store, f"w{seeded.facts}", 1)
    _git.write_pack = capture  # type: ignore[assignment]
    try:
        gate.submit(store, data, now=NOW)
    finally:
        _git.write_pack = original  # type: ignore[assignment]
    if not captured:
        return {}
    objects = captured[-1]
    size = sum(len(body) for _, body in objects.values())
    scratch = Path(tempfile.mkdtemp(prefix="packs-", dir=store.root))

    def write_once() -> None:
        _git.write_pack(scratch, objects, durable=False)
        for leftover in scratch.iterdir():
            leftover.unlink()

    return {
        f"write_pack: one commit, {len(objects)} objects, {size / 1024:.0f} KiB": write_once,
        "  zlib as _git._pack_entry (level 6, memLevel 2)":
            lambda: [_git._pack_entry(kind, body) for kind, body in objects.values()],
        "  zlib.compress(level 1), same objects":
            lambda: [zlib.compress(body, 1) for _, body in objects.values()],
    }


# -- reporting --------------------------------------------------------------------------


def profile_summary(profile: cProfile.Profile, commits: int, top: int) -> str:
    buf = io.StringIO()
    stats = pstats.Stats(profile, stream=buf)
    stats.strip_dirs()
    buf.write(f"cProfile over {commits} gate.submit calls (COMMIT), sorted by cumulative time\n")
    stats.sort_stats("cumulative").print_stats(top)
    buf.write("\nsorted by own time\n")
    stats.sort_stats("tottime").print_stats(top)
    return buf.getvalue()


def fmt_row(cells: Iterable[str], widths: list[int]) -> str:
    return "  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True))


def render(result: dict[str, Any]) -> str:
    lines = [f"memrepo gate benchmark  (python {result['python']}, pygit2 {result['pygit2']}, "
             f"libgit2 {result['libgit2']}, store in {result['dir_fs']})", ""]
    head = ["facts", "fsync", "commits", "gate c/s", "raw c/s", "gate/raw", "+ms/commit",
            "gate p50 ms", "gate p99 ms", "raw p50 ms", "cpu ms g/r", "cpu g/r", "load"]
    widths = [max(len(h), 8) for h in head]
    lines += ["Gated commits (new fact per proposal) vs raw pygit2 loop, same objects and ref",
              "(c/s, gate/raw and +ms/commit = gate minus raw, from wall time; cpu = process",
              " time per commit, which other processes disturb less; load = 1-min load average",
              " at start/end)",
              fmt_row(head, widths)]
    for r in result["commits"]:
        lines.append(fmt_row([
            f"{r['facts']:,}", "yes" if r["durable"] else "no", str(r["commits"]),
            f"{r['gate_commits_per_s']:.1f}", f"{r['raw_commits_per_s']:.1f}",
            f"{r['ratio_gate_over_raw']:.2f}x",
            f"{1000 / r['gate_commits_per_s'] - 1000 / r['raw_commits_per_s']:.2f}",
            f"{r['gate']['p50_ms']:.2f}",
            f"{r['gate']['p99_ms']:.2f}", f"{r['raw']['p50_ms']:.2f}",
            f"{r['gate_cpu_ms_per_commit']:.1f}/{r['raw_cpu_ms_per_commit']:.1f}",
            f"{r['ratio_cpu']:.2f}x",
            "/".join(f"{x:.1f}" for x in r["loadavg_1min"])], widths))
    lines += ["", "Reads with a reused Store (random subject / proposalId each call)"]
    head = ["facts", "op", "n", "p50 ms", "p99 ms", "mean ms"]
    widths = [9, 12, 6, 8, 8, 8]
    lines.append(fmt_row(head, widths))
    for r in result["reads"]:
        for op in ("recall", "record_hit", "record_miss", "state"):
            if op in r:
                s = r[op]
                lines.append(fmt_row([f"{r['facts']:,}", op, str(s["n"]), f"{s['p50_ms']:.3f}",
                                      f"{s['p99_ms']:.3f}", f"{s['mean_ms']:.3f}"], widths))
    if result.get("stages"):
        st = result["stages"]
        lines += ["", f"Gate stages in isolation at {st['facts']:,} facts "
                      f"(median of {st['n']} calls each, no profiler)"]
        for name, ms in st["median_ms"].items():
            lines.append(f"  {name:<50} {ms:8.3f} ms")
    if result.get("split"):
        sp = result["split"]
        lines += ["", f"Where a commit's wall time goes: {sp['commits']} non-durable commits at "
                      f"{sp['facts']:,} facts, ms per commit, inclusive of nested rows"]
        order = [label for _, _, label in SPLIT_TARGETS] + list(RAW_LABELS)
        names = sorted(sp["ms_per_commit"], key=lambda k: (order.index(k) if k in order
                                                            else len(order), k))
        for name in names:
            ms, calls = sp["ms_per_commit"][name], sp["calls_per_commit"][name]
            lines.append(f"  {name:<40} {ms:8.3f} ms   ({calls:g} calls)")
    lines += ["", "Seeding (bulk pygit2 writer, not timed above): " + ", ".join(
        f"{s['facts']:,} facts in {s['seconds']:.1f}s" for s in result["seeds"])]
    lines.append("Aims: gate/raw <= 1.30x; recall p50 < 1 ms at 100k facts.")
    return "\n".join(lines)


def fs_type(path: Path) -> str:
    best, kind = "", "?"
    try:
        with open("/proc/mounts") as mounts:
            for line in mounts:
                parts = line.split()
                mount = parts[1]
                if str(path.resolve()).startswith(mount) and len(mount) > len(best):
                    best, kind = mount, parts[2]
    except OSError:
        pass
    return f"{path} ({kind})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="0,10000,100000",
                        help="existing facts per run, comma separated (default 0,10000,100000)")
    parser.add_argument("--commits", type=int, default=300,
                        help="gated (and raw) commits per size and fsync mode (default 300)")
    parser.add_argument("--block", type=int, default=25,
                        help="gate/raw interleaving block size (default 25)")
    parser.add_argument("--samples", type=int, default=2000, help="read samples (default 2000)")
    parser.add_argument("--no-durable", action="store_true", help="skip the fsync runs")
    parser.add_argument("--loose", action="store_true",
                        help="seed loose objects instead of one pack")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: sizes 0,2000, 50 commits, 300 read samples")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="also cProfile N extra non-durable gate commits at the last size")
    parser.add_argument("--profile-top", type=int, default=30)
    parser.add_argument("--no-stages", action="store_true",
                        help="skip timing the gate's steps one by one at the last size")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where to create the stores (default: a new dir under /tmp)")
    parser.add_argument("--keep", action="store_true", help="keep the stores afterwards")
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.commits, args.samples = "0,2000", 50, 300
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]

    base = Path(tempfile.mkdtemp(prefix="memrepo-bench-", dir=args.dir or "/tmp"))
    rng = random.Random(20261014)
    log = sys.stderr
    result: dict[str, Any] = {
        "python": sys.version.split()[0], "pygit2": pygit2.__version__,
        "libgit2": pygit2.LIBGIT2_VERSION, "dir_fs": fs_type(base), "cpus": os.cpu_count(),
        "args": {"sizes": sizes, "commits": args.commits, "block": args.block,
                 "samples": args.samples, "loose_seed": args.loose,
                 "auto_maintenance": os.environ.get("MEMREPO_AUTO_MAINTENANCE", "background")},
        "seeds": [], "commits": [], "reads": [],
    }
    profile_text = None
    try:
        for size in sizes:
            root = base / f"store-{size}"
            store = Store.init(root, durable=False)
            tenant = store.tenant(TENANT, create=True)
            print(f"seeding {size:,} facts ...", file=log, flush=True)
            seeded = seed(tenant, size, loose=args.loose)
            seeded.raw_path = base / f"raw-{size}.git"
            shutil.copytree(tenant.path, seeded.raw_path, symlinks=True)
            result["seeds"].append({"facts": size, "seconds": seeded.seconds})
            print(f"  {seeded.seconds:.1f}s; reads ...", file=log, flush=True)
            result["reads"].append(run_reads(Store(root, durable=False), seeded, args.samples,
                                             rng))
            for durable in ([False] if args.no_durable else [False, True]):
                print(f"  {args.commits} commits, durable={durable} ...", file=log, flush=True)
                store = Store(root, durable=durable)
                run = run_commits(store, seeded, durable, args.commits, args.block)
                result["commits"].append(run.row())
            if not args.no_stages and size == sizes[-1]:
                print("  timing gate stages ...", file=log, flush=True)
                result["stages"] = run_stages(Store(root, durable=False), seeded,
                                              min(args.samples, 500))
                split = Split()
                n_split = min(args.commits, 300)
                run_commits(Store(root, durable=False), seeded, False, n_split, args.block,
                            label="x", split=split)
                result["split"] = {
                    "facts": size, "commits": n_split,
                    "ms_per_commit": {k: 1000 * v / n_split for k, v in split.seconds.items()},
                    "calls_per_commit": {k: v / n_split for k, v in split.calls.items()},
                }
            if args.profile and size == sizes[-1]:
                print(f"  profiling {args.profile} commits ...", file=log, flush=True)
                store = Store(root, durable=False)
                profile = cProfile.Profile()
                run_commits(store, seeded, False, args.profile, args.block, label="p",
                            profile=profile)
                profile_text = profile_summary(profile, args.profile, args.profile_top)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
        else:
            print(f"stores kept in {base}", file=log)
    if args.json:
        if profile_text:
            result["profile"] = profile_text
        print(json.dumps(result, indent=2))
    else:
        print(render(result))
        if profile_text:
            print()
            print(profile_text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
