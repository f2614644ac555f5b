"""Benchmark the projections: events applied per second into SQLite, and search latency.

    .venv/bin/python bench/bench_projections.py            # 100,000 facts
    .venv/bin/python bench/bench_projections.py --quick    # 10,000 facts

The tenant repository is seeded directly (fact files as the gate writes them,
``--per-commit`` facts per commit, through ``git fast-import``) because the gate is not
what is measured here. Then, on that history:

* full sync of the FTS projection and of the vector projection from an empty file
  (replaying every commit: events/s),
* rebuild of the FTS projection from the tip's snapshot (facts/s),
* incremental sync after single-fact commits (updates and revocations), as in service,
* search latency (p50/p99) for FTS and vector search, each query confined to a subject,
* verify of every projection against main.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from memrepo import canonical, layout, projections
from memrepo.proposal import Fact, FactSource, FactStatus, Scope
from memrepo.store import Store, TenantRepo

STAMP = "2026-10-14T09:00:00Z"
KINDS = ["preference", "profile", "project", "habit"]
CJK = ["北京", "上海", "绿茶", "咖啡", "简洁", "素食", "编辑器", "中文", "东京", "公制"]


def vocabulary(rng: random.Random, size: int = 2000) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = {"".join(rng.choice(letters) for _ in range(rng.randint(3, 9))) for _ in range(size)}
    return sorted(words) + CJK


def seed(tenant: TenantRepo, n_facts: int, n_subjects: int, per_commit: int,
         rng: random.Random, words: list[str]) -> list[tuple[str, dict[str, str], str, str]]:
    """Write ``n_facts`` facts in commits of ``per_commit`` on top of main; returns the slots.

    The commits go through ``git fast-import`` (straight into a pack, as a repository
    looks after ``git gc``); writing 100k loose objects one by one takes minutes.
    """
    tip = tenant.state().main
    assert tip is not None
    slots = []
    scope = {"kind": "global", "key": "default"}
    per_subject = -(-n_facts // n_subjects)
    stream = bytearray(b"feature done\n")
    files: list[bytes] = []

    def flush(number: int) -> None:
        message = f"bench: {len(files)} facts\n\nOp: edit\nOperator: bench\n".encode()
        stream.extend(b"commit refs/heads/main\n")
        stream.extend(f"committer bench <bench@memrepo.invalid> {1_760_000_000 + number}"
                      f" +0000\n".encode())
        stream.extend(b"data %d\n%s\n" % (len(message), message))
        if number == 0:
            stream.extend(f"from {tip}\n".encode())
        for entry in files:
            stream.extend(entry)
        files.clear()

    commits = 0
    for i in range(n_facts):
        # One subject's facts are consecutive, so a commit touches few trees.
        subject = f"user{i // per_subject:05d}"
        kind, key = KINDS[i % len(KINDS)], f"key{i % per_subject:04d}"
        value = " ".join(rng.sample(words, rng.randint(2, 6)))
        fact = Fact(memory_id=layout.memory_id(tenant.tenant_id, subject, scope, kind, key),
                    version=1, tenant_id=tenant.tenant_id, subject_id=subject,
                    scope=Scope(**scope), kind=kind, normalized_key=key, value=value,
                    source=FactSource.ADMIN_MANUAL, created_at=STAMP, updated_at=STAMP,
                    operator="bench")
        body = canonical.dumps_pretty(fact.to_json())
        path = layout.fact_path(subject, scope, kind, key)
        files.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(body), body))
        slots.append((subject, scope, kind, key))
        if len(files) >= per_commit or i == n_facts - 1:
            flush(commits)
            commits += 1
    stream.extend(b"done\n")
    subprocess.run(["git", "fast-import", "--quiet"], input=bytes(stream), cwd=tenant.path,
                   check=True, env={**os.environ, "GIT_DIR": str(tenant.path)})
    return slots


def single_fact_commits(tenant: TenantRepo, slots: list[tuple[str, dict[str, str], str, str]],
                        n: int, rng: random.Random, words: list[str]) -> None:
    """``n`` commits of one fact each: updates, and one in ten a revocation."""
    for i in range(n):
        subject, scope, kind, key = rng.choice(slots)
        state = tenant.state()
        path = layout.fact_path(subject, scope, kind, key)
        current = tenant.fact_at(path, state)
        assert current is not None
        update = {"version": current.version + 1, "updated_at": STAMP}
        if i % 10 == 9 and current.status is FactStatus.ACTIVE:
            update["status"] = FactStatus.REVOKED
        else:
            update["status"] = FactStatus.ACTIVE
            update["value"] = " ".join(rng.sample(words, 3))
        blob = tenant.blob(current.model_copy(update=update).to_json())
        assert tenant.commit(state, main={path: blob}, message="bench update\n\nOp: edit\n")


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency(search: projections.FactsProjection | projections.VectorProjection,
            queries: list[tuple[str, str]]) -> tuple[float, float, float]:
    samples, found = [], 0
    for subject, query in queries:
        start = time.perf_counter()
        hits = search.search(subject, query)
        samples.append((time.perf_counter() - start) * 1000)
        found += bool(hits)
    return percentile(samples, 0.5), percentile(samples, 0.99), found / len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--subjects", type=int, default=0, help="default: facts / 100")
    parser.add_argument("--per-commit", type=int, default=10)
    parser.add_argument("--updates", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--quick", action="store_true", help="10,000 facts, fewer queries")
    parser.add_argument("--keep", type=Path, help="Keep the store in this directory.")
    args = parser.parse_args()
    if args.quick:
        args.facts, args.updates, args.queries = 10_000, 300, 200
    n_subjects = args.subjects or max(1, args.facts // 100)
    rng = random.Random(2026)
    words = vocabulary(rng)
    root = args.keep or Path(tempfile.mkdtemp(prefix="memrepo-bench-proj-"))
    if root.exists():
        shutil.rmtree(root)
    store = Store.init(root, durable=False)
    tenant = store.tenant("bench", create=True)

    t0 = time.perf_counter()
    slots = seed(tenant, args.facts, n_subjects, args.per_commit, rng, words)
    commits = -(-args.facts // args.per_commit)
    print(f"seeded {args.facts:,} facts for {n_subjects:,} subjects in {commits:,} commits "
          f"({time.perf_counter() - t0:.1f}s)")

    facts = projections.FactsProjection(store, "bench")
    vectors = projections.VectorProjection(store, "bench")
    for p in (facts, vectors):
        start = time.perf_counter()
        result = p.sync(batch_size=1000)
        took = time.perf_counter() - start
        print(f"full sync   {p.name:<34} {result.events:>8,} events  {took:7.2f}s  "
              f"{result.events / took:>9,.0f} events/s")

    other = projections.FactsProjection(store, "bench", path=root / "rebuild.sqlite")
    start = time.perf_counter()
    count = other.rebuild()
    took = time.perf_counter() - start
    print(f"rebuild     {other.name:<34} {count:>8,} facts   {took:7.2f}s  "
          f"{count / took:>9,.0f} facts/s")
    other.close()

    single_fact_commits(tenant, slots, args.updates, rng, words)
    for p in (facts, vectors):
        start = time.perf_counter()
        result = p.sync(batch_size=100)
        took = time.perf_counter() - start
        print(f"incremental {p.name:<34} {result.events:>8,} events  {took:7.2f}s  "
              f"{result.events / took:>9,.0f} events/s (one fact per commit)")

    queries = []
    for _ in range(args.queries):
        subject = f"user{rng.randrange(n_subjects):05d}"
        queries.append((subject, " ".join(rng.sample(words, rng.choice([1, 1, 2])))))
    # Half the queries use a word the subject really has, so hits are not all empty.
    for i in range(0, len(queries), 2):
        subject, _ = queries[i]
        live = facts.conn.execute("SELECT value FROM facts WHERE subject_id = ? AND "
                                  "searchable = 1 LIMIT 1", (subject,)).fetchone()
        if live:
            queries[i] = (subject, canonical.loads_strict(live[0]).split()[0])  # type: ignore
    for p in (facts, vectors):
        p50, p99, hit_rate = latency(p, queries)  # type: ignore[arg-type]
        print(f"search      {p.name:<34} p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  "
              f"({len(queries)} queries, {hit_rate:.0%} with hits, "
              f"~{args.facts // n_subjects} facts/subject)")
    facts.close()
    vectors.close()

    start = time.perf_counter()
    reports = projections.verify_all(store, "bench", sync=False)
    took = time.perf_counter() - start
    print(f"verify      {len(reports)} projections vs main       {took:7.2f}s  "
          f"drift {sum(len(r.drift) for r in reports)}, "
          f"residue {sum(r.revocation_residue for r in reports)}")
    size = sum(f.stat().st_size for f in projections.projection_dir(store, "bench").iterdir())
    print(f"projection files {size / 1e6:.1f} MB in {projections.projection_dir(store, 'bench')}")
    if args.keep is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
