"""`make demo`: build a memory store from sample-repo/ and show the gate at work.

Runs the shipped conversations and an LLM extractor's proposals for them (good ones and
bad ones: a guess, a joke, a pasted web page, a secret, a retraction) through the real
library, prints each decision with its reasons, then the recalled memory and the git log
of the result. Usage: python sample-repo/demo.py STORE_DIR
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from memrepo import gate, recall
from memrepo.proposal import parse_message
from memrepo.store import Store

HERE = Path(__file__).resolve().parent


def main(store_dir: str) -> int:
    store = Store.init(store_dir)
    messages = [parse_message(line) for line in (HERE / "messages.jsonl").open(encoding="utf-8")]
    texts = {m.message_id: m for m in messages}
    for tenant in sorted({m.tenant_id for m in messages}):
        store.tenant(tenant, create=True).ingest([m for m in messages if m.tenant_id == tenant])
    print(f"== {len(messages)} messages ingested into {store_dir}\n")
    print("== the gate decides each proposal from the source message alone\n")
    subjects: set[tuple[str, str]] = set()
    for line in (HERE / "proposals.jsonl").open(encoding="utf-8"):
        data = json.loads(line)
        ev = data["evidence"]
        quote = texts[ev["messageId"]].text[ev["start"]:ev["end"]]
        decision = gate.submit(store, data)
        subjects.add((data["tenantId"], data["subjectId"]))
        value = json.dumps(data["value"], ensure_ascii=False)
        print(f"{decision.decision.value:<18} {data['kind']}/{data['normalizedKey']} = {value}")
        print(f"{'':<18} evidence: {quote!r}")
        print(f"{'':<18} reasons:  {', '.join(decision.reasons)}\n")
    print("== recalled memory (what a prompt builder gets)\n")
    for tenant, subject in sorted(subjects):
        for fact in recall.recall(store, tenant, subject):
            print(f"{subject}: {fact.kind}/{fact.normalized_key} "
                  f"[{fact.scope.kind}:{fact.scope.key}] = "
                  f"{json.dumps(fact.value, ensure_ascii=False)} (v{fact.version})")
    for tenant in sorted({t for t, _ in subjects}):
        repo = store.tenant_path(tenant)
        print(f"\n== git --git-dir {repo} log --stat main\n", flush=True)
        subprocess.run(["git", "--git-dir", str(repo), "--no-pager", "log", "--stat", "main"],
                       check=True)
    print(f"\nPending proposals: memrepo --store {store_dir} pending --tenant acme")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: demo.py STORE_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
