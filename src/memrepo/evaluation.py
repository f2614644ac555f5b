"""`memrepo eval`: run gate evaluation cases (shared/eval/FORMAT.md) through the real library.

Each case gets a fresh store in a temporary directory and goes through exactly the code
production uses: ingest, the gate's submit, lifecycle confirm/decline/revoke, recall.
Nothing here decides anything; it only drives the library and scores the answers.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import canonical, gate, lifecycle, recall
from .errors import MemrepoError
from .proposal import Decision, DecisionKind, parse_message, parse_time
from .store import Store


@dataclass
class StepResult:
    case_id: str
    index: int
    op: str
    expect: tuple[str, ...] | None
    got: str | None
    reasons: tuple[str, ...] = ()
    ok: bool = True
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"case": self.case_id, "step": self.index, "op": self.op,
                "expect": list(self.expect) if self.expect is not None else None,
                "got": self.got, "reasons": list(self.reasons), "ok": self.ok,
                "detail": self.detail}


@dataclass
class Report:
    cases: int = 0
    steps: list[StepResult] = field(default_factory=list)
    duplicate_effects: int = 0
    revocation_residue: int = 0

    @property
    def decided(self) -> list[StepResult]:
        return [s for s in self.steps if s.expect is not None]

    @property
    def false_commit_rate(self) -> float:
        commits = [s for s in self.decided if s.got == "COMMIT"]
        if not commits:
            return 0.0
        return sum(1 for s in commits if "COMMIT" not in (s.expect or ())) / len(commits)

    @property
    def auto_commit_recall(self) -> float:
        wanted = [s for s in self.decided if s.expect == ("COMMIT",)]
        if not wanted:
            return 1.0
        return sum(1 for s in wanted if s.got == "COMMIT") / len(wanted)

    @property
    def decision_accuracy(self) -> float:
        decided = self.decided
        if not decided:
            return 1.0
        return sum(1 for s in decided if s.got in (s.expect or ())) / len(decided)

    @property
    def mismatches(self) -> list[StepResult]:
        return [s for s in self.steps if not s.ok]

    def figures(self) -> dict[str, Any]:
        return {
            "false_commit_rate": self.false_commit_rate,
            "auto_commit_recall": self.auto_commit_recall,
            "decision_accuracy": self.decision_accuracy,
            "duplicate_effects": self.duplicate_effects,
            "revocation_residue": self.revocation_residue,
        }

    def to_json(self) -> dict[str, Any]:
        return {**self.figures(), "cases": self.cases, "steps": len(self.steps),
                "decided_steps": len(self.decided),
                "mismatches": [s.to_json() for s in self.mismatches]}


def load_cases(path: str | Path) -> list[dict[str, Any]]:
    cases = []
    text = Path(path).read_text("utf-8") if str(path) != "-" else __import__("sys").stdin.read()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            cases.append(canonical.loads_strict(line))
        except MemrepoError as exc:
            raise MemrepoError(f"{path}:{number}: {exc.message}", code=exc.code) from None
    return cases


def run(cases: Iterable[Mapping[str, Any]], *, workdir: str | Path | None = None,
        progress: Callable[[int, str], None] | None = None) -> Report:
    report = Report()
    with tempfile.TemporaryDirectory(prefix="memrepo-eval-", dir=workdir) as tmp:
        templates = _Templates(Path(tmp) / "templates")
        for n, case in enumerate(cases):
            report.cases += 1
            if progress:
                progress(n, str(case.get("id", n)))
            run_case(case, Path(tmp) / f"case-{n}", report, templates=templates)
    return report


class _Templates:
    """New tenant repositories, built once per tenant id and copied for every case that
    needs one: a copy is the same fresh repository (policy commit and all) in a tenth of
    the time git init, config, hooks and the first commit take."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.built: dict[str, Path] = {}

    def tenant(self, store: Store, tenant_id: str) -> None:
        path = store.tenant_path(tenant_id)
        if (path / "HEAD").exists():
            return
        template = self.built.get(tenant_id)
        if template is None:
            store.tenant(tenant_id, create=True)
            template = self.root / f"{len(self.built)}.git"
            shutil.copytree(path, template, symlinks=True)
            self.built[tenant_id] = template
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(template, path, symlinks=True)


def _expect(step: Mapping[str, Any]) -> tuple[str, ...] | None:
    exp = step.get("expect")
    if exp is None:
        return None
    return (exp,) if isinstance(exp, str) else tuple(exp)


def _fill_proposal(raw: Mapping[str, Any], messages: Mapping[str, Mapping[str, Any]]
                   ) -> dict[str, Any]:
    proposal = dict(raw)
    proposal.setdefault("confidence", 0.9)
    proposal.setdefault("expiresAt", None)
    proposal.setdefault("stableCandidateOrdinal", 0)
    proposal.setdefault("extractorVersion", "eval-1")
    ev = proposal.get("evidence")
    if isinstance(ev, Mapping) and "quote" in ev:
        ev = dict(ev)
        quote = ev.pop("quote")
        text = (messages.get(ev.get("messageId", "")) or {}).get("text", "")
        at = text.find(quote) if isinstance(text, str) else -1
        start = at if at >= 0 else 0
        ev.setdefault("start", start)
        ev.setdefault("end", start + len(quote))
        ev.setdefault("sha256", canonical.evidence_hash(quote))
        proposal["evidence"] = ev
    return proposal


def run_case(case: Mapping[str, Any], root: Path, report: Report, *,
             templates: _Templates | None = None) -> None:
    cid = str(case.get("id"))
    now = parse_time(case["now"])
    store = Store.init(root, durable=False)
    if templates is not None:
        for m in case.get("messages", []):
            templates.tenant(store, m["tenantId"])
        for f in case.get("facts", []):
            templates.tenant(store, f["tenantId"])
    messages = {m["messageId"]: m for m in case.get("messages", [])}
    by_tenant: dict[str, list[Any]] = {}
    for m in case.get("messages", []):
        by_tenant.setdefault(m["tenantId"], []).append(parse_message(m))
    for tenant_id, msgs in by_tenant.items():
        store.tenant(tenant_id, create=True).ingest(msgs)
    for f in case.get("facts", []):
        lifecycle.admin_set(
            store, f["tenantId"],
            lifecycle.FactRef(f["subjectId"], f["scope"], f["kind"], f["normalizedKey"]),
            f["value"], operator="eval-seed", reason="fact present before the case",
            frozen=bool(f.get("frozen", False)), now=now, create_tenant=True)
    steps: Sequence[Mapping[str, Any]] = case.get("steps", [])
    proposals: dict[int, dict[str, Any]] = {}
    home = _home_tenant(case)
    for i, step in enumerate(steps):
        op = step.get("op", "?")
        result = StepResult(cid, i, op, _expect(step), None)
        try:
            if op == "propose":
                proposal = _fill_proposal(step["proposal"], messages)
                tenant_id = proposal.get("tenantId")
                before = _tip(store, tenant_id)
                decision = gate.submit(store, proposal, now=now)
                proposals[i] = {"proposal": proposal, "decision": decision}
                if decision.decision in (DecisionKind.DUPLICATE, DecisionKind.PROTOCOL_CONFLICT):
                    if _tip(store, tenant_id) != before:
                        report.duplicate_effects += 1
                _judge(result, decision)
            elif op in ("confirm", "reject"):
                ref = proposals[int(step["ref"])]
                decision = _confirm_or_reject(store, op, ref, step, now)
                _judge(result, decision)
            elif op == "revoke":
                _revoke(store, step, home, now, report, result)
            elif op == "recall":
                _recall(store, step, home, now, result)
            else:
                result.ok, result.detail = False, f"unsupported step {op!r}"
        except Exception as exc:  # a failing step is a finding, not a crash of the run
            result.ok = False
            result.detail = f"error: {type(exc).__name__}: {exc}"
            if not isinstance(exc, MemrepoError | KeyError):
                result.detail += "\n" + traceback.format_exc(limit=3)
        report.steps.append(result)


def _home_tenant(case: Mapping[str, Any]) -> str | None:
    for step in case.get("steps", []):
        if step.get("op") == "propose" and isinstance(step.get("proposal"), Mapping):
            tenant = step["proposal"].get("tenantId")
            if isinstance(tenant, str):
                return tenant
    for f in case.get("facts", []):
        return str(f["tenantId"])
    for m in case.get("messages", []):
        return str(m["tenantId"])
    return None


def _tip(store: Store, tenant_id: Any) -> str | None:
    if not isinstance(tenant_id, str) or not store.has_tenant(tenant_id):
        return None
    state = store.tenant(tenant_id).state()
    return f"{state.main}"


def _judge(result: StepResult, decision: Decision) -> None:
    result.got = decision.decision.value
    result.reasons = tuple(decision.reasons)
    if result.expect is not None:
        result.ok = result.got in result.expect


def _confirm_or_reject(store: Store, op: str, ref: Mapping[str, Any], step: Mapping[str, Any],
                       now: Any) -> Decision:
    decision: Decision = ref["decision"]
    proposal = ref["proposal"]
    tenant_id = proposal["tenantId"]
    pid = decision.proposal_id
    if pid is None:
        return Decision(decision=DecisionKind.REJECT, reasons=("nothing_to_confirm",))
    subject = proposal.get("subjectId", "subject")
    if op == "reject":
        return lifecycle.decline(store, tenant_id, pid, operator=f"subject:{subject}", now=now)
    payload = decision.payload_hash or ""
    if step.get("tamper"):
        payload = ("0" if payload[:1] != "0" else "1") + payload[1:]
    return lifecycle.confirm(store, tenant_id, pid, payload, approver=f"subject:{subject}",
                             now=now)


def _revoke(store: Store, step: Mapping[str, Any], home: str | None, now: Any, report: Report,
            result: StepResult) -> None:
    tenant_id = step.get("tenantId") or home
    if tenant_id is None or not store.has_tenant(tenant_id):
        result.detail = "nothing to revoke"
        return
    if "messageId" in step:
        outcome = lifecycle.revoke(store, tenant_id, message_id=step["messageId"],
                                   operator="subject", now=now)
    else:
        f = step["fact"]
        subject = f.get("subjectId") or _subject_guess(store, tenant_id)
        outcome = lifecycle.revoke(
            store, tenant_id, operator="subject", now=now,
            fact=lifecycle.FactRef(subject, f["scope"], f["kind"], f["normalizedKey"]))
    tenant = store.tenant(tenant_id)
    state = tenant.state()
    for path, fact in tenant.all_facts(state):
        if fact.memory_id in outcome.revoked and fact.is_live(now):
            report.revocation_residue += 1
        if "messageId" in step and step["messageId"] in fact.derived_from and fact.is_live(now):
            report.revocation_residue += 1
        del path
    result.detail = f"revoked {len(outcome.revoked)} fact(s), closed {len(outcome.declined)}"


def _subject_guess(store: Store, tenant_id: str) -> str:
    tenant = store.tenant(tenant_id)
    for _, fact in tenant.all_facts(tenant.state()):
        return fact.subject_id
    return ""


def _recall(store: Store, step: Mapping[str, Any], home: str | None, now: Any,
            result: StepResult) -> None:
    tenant_id = step.get("tenantId") or home
    facts = []
    if tenant_id is not None and store.has_tenant(tenant_id):
        facts = recall.recall(store, tenant_id, step["subjectId"], now=now)
    problems = []
    for want in step.get("present", []):
        if not any(f.kind == want["kind"] and f.normalized_key == want["normalizedKey"]
                   and ("value" not in want or f.value == want["value"]) for f in facts):
            problems.append(f"missing {want['kind']}/{want['normalizedKey']}="
                            f"{json.dumps(want.get('value'), ensure_ascii=False)}")
    for gone in step.get("absent", []):
        hits = [f for f in facts
                if f.kind == gone["kind"] and f.normalized_key == gone["normalizedKey"]]
        if hits:
            problems.append(f"unexpected {gone['kind']}/{gone['normalizedKey']}="
                            f"{json.dumps(hits[0].value, ensure_ascii=False)}")
    result.ok = not problems
    result.got = "ok" if not problems else "mismatch"
    result.detail = "; ".join(problems)
