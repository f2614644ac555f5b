"""Durable commits, group commit and scale: the figures asked for in issue 6.

    .venv/bin/python bench/bench_durable.py                  # 10k, 100k, 1M facts (~70 min)
    .venv/bin/python bench/bench_durable.py --quick          # 2k and 10k facts (~3 min)
    .venv/bin/python bench/bench_durable.py --sizes 10000,1000000 --rounds 3 --json

1. **Throughput** on a tenant seeded with ``--base`` facts. Every mode writes the same
   kind of commit (a new ``preference/package_manager`` fact for a new subject, its
   proposal record, its source message and the two index entries), in ``--rounds``
   rounds of blocks, the modes interleaved in each round so that a busy machine
   disturbs them alike. Durable (everything on stable storage before the next one):

   * ``raw loop``: pygit2 writing those objects loose and moving a ref, fsync on (the
     floor of a one-commit-one-fsync design, no gate at all);
   * ``gate, loose``: the gate deciding each proposal and committing it the way it did
     before batches (loose objects, fsync each, one compare-and-swap per commit);
   * ``gate.submit``: one caller, one proposal at a time (a batch of one each: one
     pack, one compare-and-swap);
   * ``submit_many``: the library's group commit, ``--batch`` proposals per call;
   * ``C procs x T threads``: independent callers of ``gate.submit`` in ``--clients``
     processes, grouped by the leader protocol (``memrepo.groupcommit``);
   * ``sqlite FULL``: SQLite in WAL mode with ``synchronous=FULL``, one transaction per
     fact inserting the same three documents (fact, proposal record, message) as rows;
   * ``gate + sqlite FULL``: the gate's decision for each proposal (``gate.assess``:
     evidence, analysis, secrets, policy, read from the tenant) and then that SQLite
     transaction: what the same gate would cost with SQLite as its storage.

   Non-durable (``fsync`` off): the raw loop, ``gate.submit`` and ``submit_many``.
   Printed: commits/s (wall), CPU ms per commit, and the ratios asked for.
2. **Scale**: a tenant per ``--sizes`` entry, seeded with ``git fast-import`` in the
   store's layout (10 facts per subject; fact, record, message with its ``.derived``
   index, ``ids/`` on main; message and conversation on the audit ref). Then, interleaved
   across sizes in each round: recall of a random subject (p50/p99), proposalId lookup
   of a random committed proposal (p50/p99), and commit cost (``gate.submit``, fsync
   off and on, ms per commit). Ratios are against the smallest size.
3. **Size on disk**: ``memrepo maintenance`` (full pass) on every tenant, then bytes
   per fact version (everything in ``objects/`` divided by the distinct fact files
   ever on main). Seeded tenants share trees among many facts per commit; the
   ``history`` section measures the other extreme: ``--history`` facts each committed
   through the gate (half alone, half in batches of ``--batch``), then the full pass,
   and the full pass with ``--fast`` (existing deltas kept) on a copy.

Seeded ids are hash-shaped but not derived from the content (the read paths never
recompute them); everything else is what the gate writes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygit2

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_gate as bg  # noqa: E402  (the gate bench's documents and raw loop)

from memrepo import _git, canonical, gate, layout, maintenance, recall  # noqa: E402
from memrepo.proposal import DecisionKind, Fact, format_time, parse_proposal  # noqa: E402
from memrepo.store import Batch, Store, TenantRepo  # noqa: E402

TENANT = bg.TENANT
NOW = bg.NOW
STAMP = format_time(NOW)
CTX = multiprocessing.get_context("spawn")


# -- seeding with git fast-import ------------------------------------------------------------


def _h(*parts: object) -> str:
    return hashlib.sha256("\x1f".join(map(str, parts)).encode()).hexdigest()


def _pretty(value: Any) -> bytes:
    """dumps_pretty for plain ASCII-keyed documents (checked against it in seed())."""
    return (json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True) + "\n").encode()


def fact_docs(i: int) -> tuple[str, list[tuple[str, bytes]], tuple[str, str, bytes]]:
    """Fact ``i`` as the gate commits it: (subject, main files, (message path,
    conversation path, message bytes))."""
    subject = f"user-{i // 10:07d}"
    kind, key = bg.SEED_KEYS[i % 10]
    value = f"{key.replace('_', '-')}-{i}"
    text = f"Remember that my {key.replace('_', ' ')} is {value}."
    quote = text[:-1]
    mid_msg, conv = f"msg-{i:08d}", f"conv-{subject}"
    scope = {"key": "default", "kind": "global"}
    ev = {"end": len(quote), "messageId": mid_msg, "sha256": _h("ev", quote), "start": 0}
    pid, phash, memory = _h("pid", i), _h("payload", i), _h("mid", subject, kind, key)[:32]
    path = layout.fact_path(subject, scope, kind, key)
    message = {"authorId": subject, "conversationId": conv, "createdAt": bg.CREATED,
               "messageId": mid_msg, "origin": "user", "role": "user", "tenantId": TENANT,
               "text": text}
    fact = {"approvedBy": None, "changeReason": None, "confidence": 0.9, "createdAt": STAMP,
            "derivedFrom": [mid_msg], "evidence": ev, "expiresAt": None, "frozen": False,
            "kind": kind, "memoryId": memory, "normalizedKey": key, "operator": "gate",
            "payloadHash": phash, "proposalId": pid, "scope": scope,
            "source": "user_explicit", "status": "ACTIVE", "subjectId": subject,
            "supersedes": None, "tenantId": TENANT, "updatedAt": STAMP, "value": value,
            "version": 1}
    proposal = {"confidence": 0.9, "evidence": ev, "kind": kind, "normalizedKey": key,
                "proposalId": pid, "scope": scope, "subjectId": subject, "tenantId": TENANT,
                "value": value}
    record = {"analysis": {"cues": ["remember"], "lang": "en"}, "base": None,
              "conversationId": conv, "decidedAt": STAMP, "decision": "COMMIT",
              "evidenceQuote": quote, "factPath": path, "memoryId": memory,
              "payloadHash": phash, "policyVersion": "0" * 16, "proposal": proposal,
              "proposalId": pid,
              "reasons": ["explicit_instruction", "auto_tier", "grounded", "evidence_verified"],
              "status": "committed", "version": 1}
    main = [(path, _pretty(fact)), (layout.proposal_path(pid), _pretty(record)),
            (layout.derived_path(mid_msg, memory), path.encode()),
            (layout.id_index_path(memory), path.encode())]
    return subject, main, (layout.message_path(mid_msg),
                           layout.conversation_message_path(conv, mid_msg), _pretty(message))


@dataclass
class Seeded:
    facts: int
    subjects: list[str]
    pids: list[str]
    seconds: float


#: Facts per ``git fast-import`` process when seeding: its cost per object grows with the
#: objects it holds (100k facts: 31 s, 400k: 151 s), so a million go in ten runs.
SEED_PER_PROCESS = 100_000


def seed(tenant: TenantRepo, n: int) -> Seeded:
    """Write ``n`` committed facts on main (and their messages on the audit ref) with
    ``git fast-import``: straight into packs, as the tenant looks after maintenance.

    One commit per :data:`SEED_PER_PROCESS` facts, each by its own fast-import run and
    pack, with no deltas (``--depth=0``), like the packs the gate's batches write. By
    default fast-import stores each blob as a delta on the one before it, in chains 50
    deep, and new tree versions as deltas on the old: a random read then resolves a chain
    no store of ours has (at 100k facts it made blob reads 1.6x slower than after
    ``git repack -F``).
    """
    for i in (0, 1, 12345):  # the fast serialiser writes what the store writes
        _, files, (_, _, message) = fact_docs(i)
        for _, data in [*files[:2], ("", message)]:
            assert canonical.dumps_pretty(json.loads(data)) == data
        Fact.model_validate_json(files[0][1])
    started = time.perf_counter()
    subjects: list[str] = []
    pids: list[str] = []
    for start in range(0, n, SEED_PER_PROCESS):
        _seed_run(tenant, start, min(n, start + SEED_PER_PROCESS), subjects, pids)
    return Seeded(n, subjects, pids, time.perf_counter() - started)


def _seed_run(tenant: TenantRepo, first: int, stop: int, subjects: list[str],
              pids: list[str]) -> None:
    """Facts ``first`` to ``stop - 1`` as one commit on each ref, by one fast-import."""
    state = tenant.state()
    env = {**maintenance.git_env(), "GIT_DIR": str(tenant.path)}
    proc = subprocess.Popen(["git", "fast-import", "--quiet", "--done", "--depth=0"],
                            stdin=subprocess.PIPE, env=env)
    assert proc.stdin is not None
    out = proc.stdin
    mark = 0
    lines: dict[str, list[bytes]] = {layout.MAIN_REF: [], layout.AUDIT_REF: []}
    for i in range(first, stop):
        subject, files, (msg_path, conv_path, message) = fact_docs(i)
        if i % 10 == 0:
            subjects.append(subject)
        pids.append(files[1][0].rsplit("/", 1)[1][:-5])
        seen: dict[bytes, int] = {}
        for path, data in [*files, (msg_path, message)]:
            if data not in seen:
                mark += 1
                seen[data] = mark
                out.write(b"blob\nmark :%d\ndata %d\n%s\n" % (mark, len(data), data))
            lines[layout.MAIN_REF].append(b"M 100644 :%d %s\n" % (seen[data], path.encode()))
        for path in (msg_path, conv_path):
            lines[layout.AUDIT_REF].append(b"M 100644 :%d %s\n" % (seen[message],
                                                                  path.encode()))
    tips = {layout.MAIN_REF: state.main, layout.AUDIT_REF: state.audit}
    for ref, files_of in lines.items():
        text = f"bench: seed facts {first}..{stop - 1}\n".encode()
        out.write(b"commit %s\ncommitter bench <bench@memrepo.invalid> %d +0000\n"
                  b"data %d\n%s\n" % (ref.encode(), int(NOW.timestamp()), len(text), text))
        if tips[ref] is not None:
            out.write(b"from %s\n" % str(tips[ref]).encode())
        out.writelines(files_of)
        out.write(b"\n")
    out.write(b"done\n")
    out.close()
    if proc.wait() != 0:
        raise SystemExit("git fast-import failed")


# -- documents for timed commits -----------------------------------------------------------


def new_facts(tenant: TenantRepo, tag: str, n: int) -> tuple[list[dict[str, Any]],
                                                             list[bg.Written]]:
    """``n`` proposals for new subjects (messages ingested now, untimed) and ``n`` raw
    payloads of the same shape for the raw loop and SQLite."""
    msgs, proposals, raws = [], [], []
    for i in range(n):
        value = f"pnpm-{tag}-{i}"
        text = f"Remember that I use {value} as my package manager."
        subject = f"new-{tag}-{i:06d}"
        msg = bg.message_doc(f"m-{tag}-{i:06d}", subject, f"c-{tag}-{i:06d}", text)
        msgs.append(msg)
        proposals.append(bg.proposal_doc(msg, subject, "preference", "package_manager",
                                         value, text[:-1]))
        raw_msg = bg.message_doc(f"r-{tag}-{i:06d}", f"raw-{tag}-{i:06d}",
                                 f"rc-{tag}-{i:06d}", text)
        raws.append(bg.committed(raw_msg, bg.proposal_doc(
            raw_msg, f"raw-{tag}-{i:06d}", "preference", "package_manager", value,
            text[:-1]), STAMP))
    for start in range(0, n, 5000):
        tenant.ingest(msgs[start:start + 5000])
    return proposals, raws


def _expect_commits(decisions: list[Any]) -> None:
    bad = [d for d in decisions if d.decision is not DecisionKind.COMMIT]
    if bad:
        raise SystemExit(f"expected COMMIT, got {bad[0].decision}: {bad[0].reasons}")


def legacy_submit(store: Store, raw: dict[str, Any]) -> Any:
    """A decision committed the way the gate did before batches: loose objects written
    (and fsynced, when durable) one by one, one compare-and-swap per commit."""
    proposal = parse_proposal(raw)
    tenant = store.tenant(proposal.tenant_id)
    _git.set_durable(store.durable)
    for _ in range(50):
        state = tenant.state()
        assessment = gate.assess(tenant, state, proposal, NOW)
        decision = gate._apply(tenant, state, assessment, NOW, raced=False)
        if decision is not None:
            return decision
    raise SystemExit("legacy_submit kept losing races")


# -- SQLite ------------------------------------------------------------------------------------


class Sqlite:
    """The equivalent transaction in SQLite (WAL, synchronous=FULL): three rows."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=FULL")
        self.conn.executescript("""
            CREATE TABLE IF NOT EXISTS messages(id TEXT PRIMARY KEY, body TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS facts(memory_id TEXT PRIMARY KEY, path TEXT NOT NULL,
                                             version INTEGER NOT NULL, body TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS proposals(id TEXT PRIMARY KEY, memory_id TEXT,
                                                 body TEXT NOT NULL);
        """)

    def commit(self, w: bg.Written) -> None:
        blobs = dict(w.blobs)
        fact = blobs[w.fact_path]
        record = blobs[layout.proposal_path(w.pid)]
        mid = json.loads(fact)["memoryId"]
        msg_id = json.loads(w.message_json)["messageId"]
        cur = self.conn
        cur.execute("BEGIN IMMEDIATE")
        cur.execute("INSERT OR IGNORE INTO messages VALUES (?, ?)",
                    (msg_id, w.message_json.decode()))
        cur.execute("INSERT INTO facts VALUES (?, ?, 1, ?)", (mid, w.fact_path, fact.decode()))
        cur.execute("INSERT INTO proposals VALUES (?, ?, ?)", (w.pid, mid, record.decode()))
        cur.execute("COMMIT")


# -- clients in other processes ------------------------------------------------------------------


def client(root: str, raws_per_thread: list[list[dict[str, Any]]], go: Any, results: Any
           ) -> None:
    """A process of ``gate.submit`` callers, one thread per list, started by ``go``."""
    store = Store(root, durable=True)
    tenant = store.tenant(TENANT)
    gate.assess(tenant, tenant.state(), parse_proposal(raws_per_thread[0][0]), NOW)  # warm
    done: list[int] = []

    def one(raws: list[dict[str, Any]]) -> None:
        mine = Store(root, durable=True)
        go.wait()
        _expect_commits([gate.submit(mine, raw, now=NOW) for raw in raws])
        done.append(len(raws))

    threads = [threading.Thread(target=one, args=(r,)) for r in raws_per_thread]
    for t in threads:
        t.start()
    results.put(("ready", os.getpid()))
    for t in threads:
        t.join()
    results.put(("done", sum(done), time.process_time()))


# -- timing helpers ----------------------------------------------------------------------------


@dataclass
class Tally:
    commits: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return self.commits / self.seconds if self.seconds else float("nan")

    @property
    def cpu_ms(self) -> float:
        return 1000 * self.cpu / self.commits if self.commits else float("nan")


@contextmanager
def timed(t: Tally, commits: int) -> Iterator[None]:
    w0, c0 = time.perf_counter(), time.process_time()
    yield
    t.seconds += time.perf_counter() - w0
    t.cpu += time.process_time() - c0
    t.commits += commits


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(values: list[float], q: float) -> float:
    return bg.percentile(values, q)


# -- 1. throughput -------------------------------------------------------------------------------


def throughput(root: Path, args: argparse.Namespace) -> dict[str, Any]:
    store = Store.init(root, durable=True)
    tenant = store.tenant(TENANT, create=True)
    seeded = seed(tenant, args.base)
    block, rounds, batch = args.block, args.rounds, args.batch
    clients, threads = args.clients, args.threads
    per_client_thread = max(1, block // (clients * threads))
    need = {"raw": block, "raw_batch": block, "legacy": block, "single": block, "many": block,
            "clients": per_client_thread * clients * threads, "sqlite": block,
            "sqlite_gate": block,
            "raw_nd": block, "single_nd": block, "many_nd": block}
    docs = {m: [new_facts(tenant, f"{m}{r}", k) for r in range(rounds)]
            for m, k in need.items()}
    tallies = {m: Tally() for m in need}
    sql = Sqlite(root / "bench.sqlite")
    repo = tenant._disk
    raw_ref = "refs/bench/raw"
    repo.create_reference_direct(raw_ref, tenant.state().main, True)
    publish_time = Tally()
    real_publish = Batch.publish

    def publish_timed(self: Batch, **kwargs: Any) -> bool:
        t0 = time.perf_counter()
        try:
            return real_publish(self, **kwargs)
        finally:
            publish_time.seconds += time.perf_counter() - t0
            publish_time.commits += self.commits

    def raw_loop(items: list[bg.Written], durable: bool) -> None:
        tip = _git.resolve(repo, raw_ref)
        pygit2.settings.enable_fsync_gitdir(durable)
        for w in items:
            tip = bg.raw_commit(repo, tip, raw_ref, w, int(NOW.timestamp()))

    def raw_batches(items: list[bg.Written]) -> None:
        """The raw loop's objects, ``batch`` commits per pack and compare-and-swap."""
        for start in range(0, len(items), batch):
            with tenant.staged() as staged:
                for w in items[start:start + batch]:
                    state = tenant.state()
                    changes = {path: _git.write_blob(tenant.repo, data) for path, data in w.blobs}
                    tenant.commit(state, main=changes, message=w.commit_message, when=NOW)
                if not staged.publish(durable=True):
                    raise SystemExit("raw batch lost a race")

    def run_clients(raws: list[dict[str, Any]], t: Tally) -> None:
        per = [raws[i::clients * threads] for i in range(clients * threads)]
        go, results = CTX.Event(), CTX.Queue()
        procs = [CTX.Process(target=client, args=(str(root), per[c * threads:(c + 1) * threads],
                                                 go, results)) for c in range(clients)]
        for p in procs:
            p.start()
        for _ in procs:
            assert results.get(timeout=120)[0] == "ready"
        time.sleep(0.2)
        w0 = time.perf_counter()
        go.set()
        cpu = 0.0
        for _ in procs:
            item = results.get(timeout=600)
            cpu += item[2]
        t.seconds += time.perf_counter() - w0
        t.commits += len(raws)
        t.cpu += cpu  # whole-process CPU of the clients, imports included (an upper bound)
        for p in procs:
            p.join()

    nd = Store(root, durable=False)
    load0 = os.getloadavg()[0]
    for r in range(rounds):
        order = list(need)
        random.Random(r).shuffle(order)
        for m in order:
            proposals, raws = docs[m][r]
            t = tallies[m]
            if m in ("raw", "raw_nd"):
                with timed(t, len(raws)):
                    raw_loop(raws, durable=m == "raw")
            elif m == "raw_batch":
                with timed(t, len(raws)):
                    raw_batches(raws)
            elif m == "legacy":
                with timed(t, len(proposals)):
                    _expect_commits([legacy_submit(store, p) for p in proposals])
            elif m in ("single", "single_nd"):
                s = store if m == "single" else nd
                with timed(t, len(proposals)):
                    _expect_commits([gate.submit(s, p, now=NOW) for p in proposals])
            elif m in ("many", "many_nd"):
                s = store if m == "many" else nd
                Batch.publish = publish_timed  # type: ignore[method-assign]
                try:
                    with timed(t, len(proposals)):
                        for start in range(0, len(proposals), batch):
                            _expect_commits(gate.submit_many(s, proposals[start:start + batch],
                                                             now=NOW))
                finally:
                    Batch.publish = real_publish  # type: ignore[method-assign]
                if m == "many":
                    t.extra["publish_s"] = t.extra.get("publish_s", 0) + publish_time.seconds
                publish_time.seconds = 0.0
            elif m == "clients":
                run_clients(proposals, t)
            elif m == "sqlite":
                with timed(t, len(raws)):
                    for w in raws:
                        sql.commit(w)
            elif m == "sqlite_gate":
                with timed(t, len(raws)):
                    for raw, w in zip(proposals, raws, strict=True):
                        verdict = gate.assess(tenant, tenant.state(), parse_proposal(raw),
                                              NOW).verdict
                        if verdict.decision is not DecisionKind.COMMIT:
                            raise SystemExit(f"expected COMMIT, got {verdict}")
                        sql.commit(w)
            print(f"  round {r + 1}/{rounds} {m:<10} {t.rate:8.1f} commits/s", flush=True)
    _git.set_durable(True)
    out = {m: {"commits": t.commits, "commits_per_s": t.rate, "cpu_ms_per_commit": t.cpu_ms,
               **t.extra} for m, t in tallies.items()}
    out["load"] = [load0, os.getloadavg()[0]]
    out["base_facts"] = seeded.facts
    report = maintenance.maintain(tenant, fsck=True, count=True)
    out["maintenance"] = report.to_json()
    return out


# -- 2. scale ----------------------------------------------------------------------------------


def read_latency(store: Store, seeded: Seeded, rng: random.Random, samples: int
                 ) -> tuple[list[float], list[float]]:
    """(recall seconds, proposalId lookup seconds) for random seeded subjects and pids."""
    tenant = store.tenant(TENANT)
    recalls, lookups = [], []
    for _ in range(samples):
        subject = rng.choice(seeded.subjects)
        t0 = time.perf_counter()
        found = recall.recall(store, TENANT, subject, now=NOW)
        recalls.append(time.perf_counter() - t0)
        assert len(found) == 10, (subject, found)
        pid = rng.choice(seeded.pids)
        t0 = time.perf_counter()
        rec = tenant.record(pid, tenant.state())
        lookups.append(time.perf_counter() - t0)
        assert rec is not None and rec.on_main
    return recalls, lookups


def scale(base: Path, args: argparse.Namespace) -> dict[str, Any]:
    stores: dict[int, tuple[Store, Store, Seeded]] = {}
    for n in args.sizes:
        root = base / f"scale-{n}"
        nd = Store.init(root, durable=False)
        tenant = nd.tenant(TENANT, create=True)
        seeded = seed(tenant, n)
        print(f"  seeded {n:,} facts in {seeded.seconds:.1f}s", flush=True)
        packs = maintenance.sizes(tenant.path).packs
        if packs > 1:
            # One pack per seeding run; a store in service has its light pass roll them up
            # (geometric repack, short delta chains) and is measured that way. Tenants
            # seeded by one run stay one undeltified pack: their reads are the cheaper.
            t0 = time.perf_counter()
            maintenance.light(tenant.path)
            print(f"  light pass over {packs} packs: "
                  f"{maintenance.sizes(tenant.path).packs} left "
                  f"({time.perf_counter() - t0:.0f}s)", flush=True)
        rss = _peak_rss_mb()
        t0 = time.perf_counter()  # what `memrepo maintenance` does after a bulk load
        built = tenant.refresh_record_index()
        t1 = time.perf_counter()
        checked = tenant.refresh_record_index(verify=True)
        assert built is not None and checked is not None and not checked.repaired
        print(f"  record index of {built.records:,} proposals built in {t1 - t0:.1f}s, "
              f"verified against the trees in {time.perf_counter() - t1:.1f}s "
              f"(peak RSS {rss:,.0f} MB before, {_peak_rss_mb():,.0f} MB after)", flush=True)
        stores[n] = (nd, Store(root, durable=True), seeded)
    rng = random.Random(6)
    samples = {n: {"recall": [], "lookup": [], "commit": [], "commit_durable": [],
                   "commit_cpu": []} for n in args.sizes}
    per_round = args.commits // args.rounds
    docs = {n: [new_facts(stores[n][0].tenant(TENANT), f"s{r}", 2 * per_round)[0]
                for r in range(args.rounds)] for n in args.sizes}
    for r in range(args.rounds):
        for n in args.sizes if r % 2 == 0 else list(reversed(args.sizes)):
            nd, durable, seeded = stores[n]
            recalls, lookups = read_latency(nd, seeded, rng, args.samples // args.rounds)
            samples[n]["recall"] += recalls
            samples[n]["lookup"] += lookups
            proposals = docs[n][r]
            for i, p in enumerate(proposals):
                s = nd if i % 2 == 0 else durable
                w0, c0 = time.perf_counter(), time.process_time()
                _expect_commits([gate.submit(s, p, now=NOW)])
                dt = time.perf_counter() - w0
                samples[n]["commit" if s is nd else "commit_durable"].append(dt)
                if s is nd:
                    samples[n]["commit_cpu"].append(time.process_time() - c0)
        print(f"  round {r + 1}/{args.rounds} done", flush=True)
    out: dict[str, Any] = {}
    for n in args.sizes:
        s = samples[n]
        out[str(n)] = {
            "recall_p50_ms": 1000 * pct(s["recall"], 0.5),
            "recall_p99_ms": 1000 * pct(s["recall"], 0.99),
            "lookup_p50_ms": 1000 * pct(s["lookup"], 0.5),
            "lookup_p99_ms": 1000 * pct(s["lookup"], 0.99),
            "commit_p50_ms": 1000 * pct(s["commit"], 0.5),
            "commit_mean_ms": 1000 * statistics.fmean(s["commit"]),
            "commit_cpu_ms": 1000 * statistics.fmean(s["commit_cpu"]),
            "commit_durable_p50_ms": 1000 * pct(s["commit_durable"], 0.5),
            "seed_seconds": stores[n][2].seconds,
        }
    for n in args.sizes:
        nd, _, _ = stores[n]
        if n > args.maintain_max:
            out[str(n)]["maintenance"] = {"bytesPerFactVersion": None}
            continue
        t0 = time.perf_counter()
        rep = maintenance.maintain(nd.tenant(TENANT), fsck=n <= args.fsck_max, count=True)
        out[str(n)]["maintenance"] = rep.to_json()
        out[str(n)]["maintenance_seconds"] = time.perf_counter() - t0
        recalls, lookups = read_latency(nd, stores[n][2], rng, args.samples // 2)
        out[str(n)]["after_maintenance"] = {
            "recall_p50_ms": 1000 * pct(recalls, 0.5), "recall_p99_ms": 1000 * pct(recalls, 0.99),
            "lookup_p50_ms": 1000 * pct(lookups, 0.5), "lookup_p99_ms": 1000 * pct(lookups, 0.99)}
        print(f"  maintenance at {n:,}: {rep.bytes_per_fact_version or 0:,.0f} B per fact "
              f"version ({time.perf_counter() - t0:.0f}s)", flush=True)
    return out


# -- 3. a history written through the gate ------------------------------------------------------


def history(base: Path, args: argparse.Namespace) -> dict[str, Any]:
    store = Store.init(base / "history", durable=False)
    tenant = store.tenant(TENANT, create=True)
    proposals, _ = new_facts(tenant, "h", args.history)
    half = args.history // 2
    _expect_commits([gate.submit(store, p, now=NOW) for p in proposals[:half]])
    for start in range(half, len(proposals), args.batch):
        _expect_commits(gate.submit_many(store, proposals[start:start + args.batch], now=NOW))
    time.sleep(2)  # a light pass started by the last batches
    copy = base / "history-fast"
    shutil.copytree(base / "history", copy, symlinks=True)
    out: dict[str, Any] = {"commits": args.history,
                           "before": maintenance.sizes(tenant.path).to_json()}
    for label, root, recompute in (("full", base / "history", True), ("fast", copy, False)):
        t0 = time.perf_counter()
        rep = maintenance.maintain(Store(root, durable=False).tenant(TENANT),
                                   recompute_deltas=recompute)
        out[label] = {"bytes_per_fact_version": rep.bytes_per_fact_version,
                      "fact_versions": rep.fact_versions, "seconds": time.perf_counter() - t0,
                      "fsck_ok": rep.fsck_ok}
    return out


# -- printing ------------------------------------------------------------------------------------


def show(result: dict[str, Any]) -> None:
    hist = result.get("history")
    if hist:
        raw = hist["before"]["totalBytes"] / hist["commits"]
        print(f"\nA history of {hist['commits']:,} facts committed through the gate "
              f"(half alone, half in batches): {raw:,.0f} B per fact version in "
              f"{hist['before']['packs']} pack(s) before maintenance, "
              f"{hist['full']['bytes_per_fact_version']:,.0f} B after the full pass "
              f"({hist['full']['seconds']:.1f}s), {hist['fast']['bytes_per_fact_version']:,.0f} "
              f"B after the full pass --fast ({hist['fast']['seconds']:.1f}s)   "
              "aim < 3 KB")
    thr = result.get("throughput")
    if thr:
        print(f"\nThroughput on a tenant of {thr['base_facts']:,} facts (interleaved rounds; "
              f"load {thr['load'][0]:.1f} -> {thr['load'][1]:.1f} on {os.cpu_count()} cores)")
        names = {"raw": "raw pygit2 loop, fsync on (loose objects)",
                 "raw_batch": f"same objects, {result['args']['batch']} commits per pack+CAS",
                 "legacy": "gate, one commit per fsync'd loose write",
                 "single": "gate.submit, one caller (batch of one)",
                 "many": f"gate.submit_many, batches of {result['args']['batch']}",
                 "clients": f"gate.submit, {result['args']['clients']} procs x "
                            f"{result['args']['threads']} threads",
                 "sqlite": "SQLite WAL synchronous=FULL, 3 rows/txn",
                 "sqlite_gate": "the gate's decision, then SQLite FULL as above",
                 "raw_nd": "raw pygit2 loop, fsync off",
                 "single_nd": "gate.submit, fsync off",
                 "many_nd": "gate.submit_many, fsync off"}
        print(f"  {'mode':<46} {'commits/s':>10} {'cpu ms/commit':>14}")
        for key, label in names.items():
            row = thr[key]
            print(f"  {label:<46} {row['commits_per_s']:>10.1f} {row['cpu_ms_per_commit']:>14.2f}")
        r = {k: thr[k]["commits_per_s"] for k in names}
        print("  ratios (same run):")
        print(f"    group commit / durable gate loop  : {r['many'] / r['legacy']:6.1f}x "
              f"(procs: {r['clients'] / r['legacy']:.1f}x)   aim >= 10x")
        print(f"    group commit / raw durable loop   : {r['many'] / r['raw']:6.1f}x")
        print(f"    storage alone, batched / loop     : {r['raw_batch'] / r['raw']:6.1f}x "
              f"(SQLite FULL / batched: {r['sqlite'] / r['raw_batch']:.1f}x)")
        print(f"    SQLite FULL / group commit        : {r['sqlite'] / r['many']:6.1f}x"
              "   aim <= 3x")
        print(f"    gate + SQLite FULL / group commit : {r['sqlite_gate'] / r['many']:6.1f}x"
              "   (the same decisions, stored in SQLite)")
        print(f"    gate.submit / raw loop, fsync off : {r['single_nd'] / r['raw_nd']:6.2f}x "
              f"(submit_many: {r['many_nd'] / r['raw_nd']:.2f}x)   aim >= 0.7x")
        if "publish_s" in thr["many"]:
            share = thr["many"]["publish_s"] / (thr["many"]["commits"] / r["many"])
            print(f"    share of a durable batch spent writing it (pack, fsyncs, CAS): "
                  f"{share:.0%}")
        m = thr["maintenance"]
        print(f"  after maintenance: {m['after']['totalBytes']:,} bytes for "
              f"{m['factVersions']:,} fact versions = {m['bytesPerFactVersion']:,.0f} B each")
    sc = result.get("scale")
    if sc:
        sizes = sorted(sc, key=int)
        first = sc[sizes[0]]
        print("\nScale (interleaved across sizes; ratio = this size / smallest)")
        print(f"  {'facts':>10} {'recall p50':>11} {'p99':>8} {'lookup p50':>11} {'p99':>8} "
              f"{'commit p50':>11} {'cpu':>7} {'durable':>8} {'B/fact ver':>11}")
        for n in sizes:
            row = sc[n]
            bpf = row["maintenance"]["bytesPerFactVersion"] or 0
            print(f"  {int(n):>10,} {row['recall_p50_ms']:>9.3f}ms {row['recall_p99_ms']:>6.2f}ms "
                  f"{row['lookup_p50_ms']:>9.3f}ms {row['lookup_p99_ms']:>6.2f}ms "
                  f"{row['commit_p50_ms']:>9.2f}ms {row['commit_cpu_ms']:>5.2f}ms "
                  f"{row['commit_durable_p50_ms']:>6.2f}ms {bpf:>11,.0f}")
        print("  after maintenance (everything in one pack, deltified by git repack):")
        for n in sizes:
            am = sc[n].get("after_maintenance")
            if am is None:
                print(f"  {int(n):>10,}   (not run: above --maintain-max)")
                continue
            print(f"  {int(n):>10,} {am['recall_p50_ms']:>9.3f}ms {am['recall_p99_ms']:>6.2f}ms "
                  f"{am['lookup_p50_ms']:>9.3f}ms {am['lookup_p99_ms']:>6.2f}ms")
        for n in sizes[1:]:
            row = sc[n]
            rec = row["recall_p50_ms"] / first["recall_p50_ms"]
            print(f"  {int(n):,} vs {int(sizes[0]):,}: recall {rec:.2f}x, "
                  f"lookup {row['lookup_p50_ms'] / first['lookup_p50_ms']:.2f}x, "
                  f"commit {row['commit_p50_ms'] / first['commit_p50_ms']:.2f}x "
                  f"(cpu {row['commit_cpu_ms'] / first['commit_cpu_ms']:.2f}x, durable "
                  f"{row['commit_durable_p50_ms'] / first['commit_durable_p50_ms']:.2f}x)"
                  "   aim <= 1.5x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, fewer commits")
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--base", type=int, default=10_000, help="facts in the throughput tenant")
    parser.add_argument("--block", type=int, default=96, help="commits per mode per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch", type=int, default=32, help="proposals per submit_many")
    parser.add_argument("--clients", type=int, default=4, help="processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per process")
    parser.add_argument("--commits", type=int, default=120, help="scale: commits per size")
    parser.add_argument("--samples", type=int, default=600, help="scale: reads per size")
    parser.add_argument("--history", type=int, default=2000,
                        help="facts committed through the gate for the size-on-disk check")
    parser.add_argument("--fsck-max", type=int, default=100_000,
                        help="run fsck in maintenance up to this size")
    parser.add_argument("--maintain-max", type=int, default=100_000,
                        help="scale: run the full maintenance pass up to this size (seeded "
                             "tenants are one pack already; at 1M it takes hours on 2 cores)")
    parser.add_argument("--skip", default="", help="comma list: throughput,history,scale")
    parser.add_argument("--dir", type=Path, help="parent directory (default: a new one in /tmp)")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.base, args.block, args.rounds = "2000,10000", 2000, 48, 2
        args.commits, args.samples, args.history = 60, 200, 400
    args.sizes = [int(s) for s in str(args.sizes).split(",") if s]
    os.environ.setdefault("MEMREPO_AUTO_MAINTENANCE", "background")
    base = Path(tempfile.mkdtemp(prefix="bench-durable-", dir=args.dir))
    skip = set(args.skip.split(","))
    result: dict[str, Any] = {"args": {k: v for k, v in vars(args).items()
                                       if isinstance(v, int | str | list)}}
    try:
        if "throughput" not in skip:
            print("throughput ...", flush=True)
            result["throughput"] = throughput(base / "throughput", args)
        if "history" not in skip:
            print("history ...", flush=True)
            result["history"] = history(base, args)
        if "scale" not in skip:
            print("scale ...", flush=True)
            result["scale"] = scale(base, args)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    show(result)
    if args.json:
        print(json.dumps(result, indent=1, default=str))


if __name__ == "__main__":
    main()
