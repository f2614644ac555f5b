"""The `memrepo` command: parse, call the library, print. Nothing here decides anything."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from . import __version__, canonical, evaluation, followup, gate, lifecycle, recall
from .errors import InputError, MemrepoError
from .proposal import Decision, DecisionKind, parse_message, parse_time, schema_text
from .store import Store

F = TypeVar("F", bound=Callable[..., Any])

EXIT_ERROR = 1
EXIT_BUG = 3


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _fail(message: str) -> None:
    click.echo(f"Error: {message}", err=True)


def handle_errors(func: F) -> F:
    """One line on stderr and a non-zero exit for every expected error."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except MemrepoError as exc:
            _fail(f"{exc.message} [{exc.code}]")
            sys.exit(EXIT_ERROR)
        except (KeyboardInterrupt, click.exceptions.Exit, click.ClickException, SystemExit):
            raise
        except Exception as exc:  # pragma: no cover - a bug; say so plainly
            _fail(f"internal error ({type(exc).__name__}: {exc}); please report it with the "
                  "command you ran")
            sys.exit(EXIT_BUG)

    return wrapper  # type: ignore[return-value]


class Context:
    def __init__(self, store: Path | None, fsync: bool) -> None:
        self.store_path = store
        self.fsync = fsync

    def store(self) -> Store:
        if self.store_path is None:
            raise InputError("no store given: pass --store DIR or set MEMREPO_STORE",
                             code="no_store")
        store = Store(self.store_path, durable=self.fsync)
        store.check()
        return store


pass_ctx = click.make_pass_decorator(Context)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--store", type=click.Path(path_type=Path), envvar="MEMREPO_STORE",
              help="Store directory (or MEMREPO_STORE).")
@click.option("--fsync/--no-fsync", default=True, envvar="MEMREPO_FSYNC", show_default=True,
              help="Durable writes (fsync objects and refs). --no-fsync is for tests and bulk "
                   "loads only.")
@click.version_option(__version__, prog_name="memrepo")
@click.pass_context
def cli(ctx: click.Context, store: Path | None, fsync: bool) -> None:
    """memrepo: long-term memory for AI agents, decided by a deterministic gate, kept in git.

    \b
    Example session:
      memrepo --store ./mem init
      memrepo --store ./mem ingest messages.jsonl
      memrepo --store ./mem propose proposals.jsonl
      memrepo --store ./mem recall --tenant t1 --subject u1
      git -C ./mem/tenants/t1.git log -p
    """
    ctx.obj = Context(store, fsync)


def _lines(source: str) -> Iterator[tuple[int, str]]:
    stream = sys.stdin if source == "-" else open(source, encoding="utf-8")  # noqa: SIM115
    with stream:
        for number, line in enumerate(stream, 1):
            if line.strip():
                yield number, line


def _read_jsonl(source: str) -> list[tuple[int, Any]]:
    out = []
    try:
        for number, line in _lines(source):
            try:
                out.append((number, canonical.loads_strict(line)))
            except InputError as exc:
                raise InputError(f"{source}:{number}: {exc.message}", code=exc.code) from None
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror}", code="unreadable") from None
    return out


@cli.command()
@pass_ctx
@handle_errors
def init(ctx: Context) -> None:
    """Create a store (a directory of per-tenant bare git repositories).

    \b
    Example:
      memrepo --store ./mem init
    """
    if ctx.store_path is None:
        raise InputError("no store given: pass --store DIR or set MEMREPO_STORE", code="no_store")
    Store.init(ctx.store_path, durable=ctx.fsync)
    click.echo(f"initialised memrepo store at {ctx.store_path}")


@cli.command()
@click.argument("source", metavar="FILE|-")
@pass_ctx
@handle_errors
def ingest(ctx: Context, source: str) -> None:
    """Store source messages (Message JSONL) immutably, creating tenants as needed.

    The whole file is validated first; nothing is written if any line is bad. A new
    message that takes back a fact its author had committed a moment before ("scratch
    that", "take the Zed part back", an ironic "nothing beats espresso at midnight 🙄")
    revokes that fact in a new commit naming the later message.

    \b
    Example:
      memrepo --store ./mem ingest sample-repo/messages.jsonl
    """
    store = ctx.store()
    by_tenant: dict[str, list[Any]] = {}
    for number, data in _read_jsonl(source):
        try:
            msg = parse_message(data)
        except InputError as exc:
            raise InputError(f"{source}:{number}: {exc.message}", code=exc.code) from None
        by_tenant.setdefault(msg.tenant_id, []).append(msg)
    total = 0
    taken: list[followup.TakenBack] = []
    for tenant_id, msgs in by_tenant.items():
        stored = store.tenant(tenant_id, create=True).ingest(msgs)
        total += len(stored)
        taken += followup.recheck(store, tenant_id, stored)
    click.echo(f"ingested {total} new message(s) for {len(by_tenant)} tenant(s)")
    for t in taken:
        click.echo(f"took back {t.memory_id[:12]} (from {t.evidence_message}): "
                   f"{t.later_message} says {', '.join(t.cues)}")
    if taken:
        click.echo(f"took back {len(taken)} fact(s) (revoked; `memrepo rollback` undoes it)")


def _print_decision(decision: Decision, as_json: bool, label: str = "") -> None:
    if as_json:
        click.echo(_dump(decision.to_json()))
        return
    where = f" v{decision.version}" if decision.version else ""
    pid = (decision.proposal_id or "-")[:12]
    click.echo(f"{label}{decision.decision.value:<18} {pid}{where}  {', '.join(decision.reasons)}")


@cli.command()
@click.argument("source", metavar="FILE|-")
@click.option("--json", "as_json", is_flag=True, help="One Decision JSON object per line.")
@click.option("--now", help="Decide as of this RFC 3339 time (default: the clock).")
@pass_ctx
@handle_errors
def propose(ctx: Context, source: str, as_json: bool, now: str | None) -> None:
    """Run extractor proposals (MemoryProposal JSONL) through the gate.

    Every line gets a decision with reasons; an invalid line is a REJECT, not an abort.

    \b
    Example:
      memrepo --store ./mem propose proposals.jsonl --json
    """
    store = ctx.store()
    moment = parse_time(now) if now else None
    for number, line in _lines(source):
        try:
            data: Any = canonical.loads_strict(line)
        except InputError as exc:
            decision = Decision(decision=DecisionKind.REJECT,
                                reasons=("invalid_proposal", exc.code))
            if not as_json:
                _fail(f"{source}:{number}: {exc.message}")
        else:
            decision = gate.submit(store, data, now=moment)
        _print_decision(decision, as_json, "" if as_json else f"{number:>4}  ")


def _fact_row(fact: Any) -> dict[str, Any]:
    return fact.to_json()


@cli.command(name="recall")
@click.option("--tenant", required=True)
@click.option("--subject", required=True)
@click.option("--kind", help="Only facts of this kind.")
@click.option("--scope", help="Only this scope, as KIND:KEY (e.g. project:shop-api).")
@click.option("--json", "as_json", is_flag=True, help="A JSON array of facts.")
@pass_ctx
@handle_errors
def recall_cmd(ctx: Context, tenant: str, subject: str, kind: str | None, scope: str | None,
               as_json: bool) -> None:
    """Active, unexpired, unrevoked facts of a subject: what a prompt builder may use.

    \b
    Example:
      memrepo --store ./mem recall --tenant t1 --subject u1 --json
    """
    scope_dict = None
    if scope:
        skind, sep, skey = scope.partition(":")
        if not sep:
            raise InputError("--scope takes KIND:KEY, e.g. global:default", code="usage")
        scope_dict = {"kind": skind, "key": skey}
    facts = recall.recall(ctx.store(), tenant, subject, scope=scope_dict, kind=kind)
    if as_json:
        click.echo(_dump([_fact_row(f) for f in facts]))
        return
    if not facts:
        click.echo(f"(no active facts for {subject})")
    for f in facts:
        click.echo(f"{f.kind}/{f.normalized_key} [{f.scope.kind}:{f.scope.key}] = "
                   f"{_dump(f.value)}  (v{f.version}, {f.source.value}, {f.memory_id[:12]})")


@cli.command()
@click.option("--tenant", required=True)
@click.argument("fact")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def show(ctx: Context, tenant: str, fact: str, as_json: bool) -> None:
    """One fact's current version and how it got there.

    FACT is a memoryId or SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY.

    \b
    Example:
      memrepo --store ./mem show --tenant t1 u1/global:default/preference/editor
    """
    stories = recall.history(ctx.store(), tenant, lifecycle.fact_target(fact))
    _print_stories(stories[-1:], as_json)


@cli.command()
@click.option("--tenant", required=True)
@click.argument("fact")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def history(ctx: Context, tenant: str, fact: str, as_json: bool) -> None:
    """Every version of one fact: proposer, quoted evidence, decision, approver, commit.

    FACT is a memoryId or SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY.

    \b
    Example:
      memrepo --store ./mem history --tenant t1 3f2a9c0d1e2f...
    """
    _print_stories(recall.history(ctx.store(), tenant, lifecycle.fact_target(fact)), as_json)


def _print_stories(stories: list[recall.VersionStory], as_json: bool) -> None:
    if as_json:
        click.echo(_dump([s.to_json() for s in stories]))
        return
    for s in stories:
        f, rec, t = s.fact, s.record or {}, s.trailers
        click.echo(f"v{f.version} {f.status.value} {f.kind}/{f.normalized_key} = {_dump(f.value)}")
        click.echo(f"  commit    {s.commit}")
        reasons = ", ".join(rec.get("reasons", []))
        proposer = rec.get("proposal", {}).get("extractorVersion", t.get("Operator"))
        click.echo(f"  decision  {t.get('Decision', '-')} ({reasons})")
        click.echo(f"  proposer  {proposer}  proposal {f.proposal_id or '-'}")
        if rec.get("evidenceQuote") is not None:
            click.echo(f"  evidence  {f.evidence.message_id if f.evidence else '-'}: "
                       f"{_dump(rec['evidenceQuote'])}")
        click.echo(f"  approved  {f.approved_by or t.get('Operator', '-')}")
        if f.change_reason:
            click.echo(f"  reason    {f.change_reason}")


@cli.command()
def schema() -> None:
    """Print the MemoryProposal JSON Schema (to constrain an LLM's structured output).

    \b
    Example:
      memrepo schema > proposal.schema.json
    """
    click.echo(schema_text())


@cli.command(name="eval")
@click.argument("source", metavar="FILE.jsonl")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the figures.")
@click.option("--strict", is_flag=True, help="Exit 1 if any step does not match its expectation.")
@handle_errors
def eval_cmd(source: str, as_json: bool, strict: bool) -> None:
    """Run gate evaluation cases (shared/eval/FORMAT.md), each in a fresh store.

    \b
    Example:
      memrepo eval ../shared/eval/dev-cases.jsonl
    """
    cases = evaluation.load_cases(source)

    def progress(n: int, cid: str) -> None:
        if not as_json and sys.stderr.isatty():
            click.echo(f"\r{n + 1}/{len(cases)} {cid:<30}", err=True, nl=False)

    report = evaluation.run(cases, progress=progress)
    if not as_json and sys.stderr.isatty():
        click.echo("", err=True)
    if as_json:
        click.echo(_dump(report.to_json()))
    else:
        for m in report.mismatches:
            expect = "|".join(m.expect) if m.expect else "-"
            click.echo(f"MISMATCH {m.case_id} step {m.index} ({m.op}): expected {expect}, "
                       f"got {m.got} [{', '.join(m.reasons)}] {m.detail}".rstrip())
        click.echo(f"cases {report.cases}, steps {len(report.steps)}, "
                   f"mismatches {len(report.mismatches)}")
        for key, value in report.figures().items():
            click.echo(f"{key:<20} {value:.4f}" if isinstance(value, float)
                       else f"{key:<20} {value}")
    if strict and report.mismatches:
        sys.exit(EXIT_ERROR)


@cli.command()
@click.option("--tenant", required=True)
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def pending(ctx: Context, tenant: str, as_json: bool) -> None:
    """Parked proposals: exactly what the subject is asked to approve.

    \b
    Example:
      memrepo --store ./mem pending --tenant t1
    """
    store = ctx.store()
    repo = store.tenant(tenant)
    records = sorted(repo.all_pending(repo.state()), key=lambda r: r["decidedAt"])
    if as_json:
        click.echo(_dump(records))
        return
    if not records:
        click.echo("(nothing pending)")
    for r in records:
        p = r["proposal"]
        click.echo(f"{r['proposalId']}  {r['decision']}")
        click.echo(f"  {p['kind']}/{p['normalizedKey']} [{p['scope']['kind']}:{p['scope']['key']}]"
                   f" = {_dump(p['value'])} for {p['subjectId']}, expires {p.get('expiresAt')}")
        click.echo(f"  evidence {p['evidence']['messageId']}: {_dump(r.get('evidenceQuote'))}")
        if r.get("base"):
            click.echo(f"  replaces v{r['base']['version']} = {_dump(r['base']['value'])}")
        click.echo(f"  reasons  {', '.join(r['reasons'])}")
        click.echo(f"  confirm: memrepo confirm --tenant {tenant} {r['proposalId']} "
                   f"--payload-hash {r['payloadHash']}")


@cli.command()
@click.option("--tenant", required=True)
@click.argument("proposal_id")
@click.option("--payload-hash", required=True, help="The payloadHash you were shown.")
@click.option("--approver", required=True, help="Who approves (recorded in the commit).")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def confirm(ctx: Context, tenant: str, proposal_id: str, payload_hash: str, approver: str,
            as_json: bool) -> None:
    """Approve a parked proposal, bound to its proposalId and payloadHash.

    \b
    Example:
      memrepo confirm --tenant t1 9f3e... --payload-hash 52ab... --approver u1
    """
    decision = lifecycle.confirm(ctx.store(), tenant, proposal_id, payload_hash,
                                 approver=approver)
    _print_decision(decision, as_json)
    if decision.decision is not DecisionKind.COMMIT:
        sys.exit(EXIT_ERROR)


@cli.command()
@click.option("--tenant", required=True)
@click.argument("proposal_id")
@click.option("--operator", required=True, help="Who declines (recorded).")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def decline(ctx: Context, tenant: str, proposal_id: str, operator: str, as_json: bool) -> None:
    """Decline a parked proposal; its record stays for the audit.

    \b
    Example:
      memrepo decline --tenant t1 9f3e... --operator u1
    """
    _print_decision(lifecycle.decline(ctx.store(), tenant, proposal_id, operator=operator),
                    as_json)


@cli.command()
@click.option("--tenant", required=True)
@click.option("--message", "message_id", help="Revoke every fact derived from this message.")
@click.option("--fact", "fact_spec", help="Revoke one fact: SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY.")
@click.option("--operator", required=True)
@click.option("--reason", default="revoked by request", show_default=True)
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def revoke(ctx: Context, tenant: str, message_id: str | None, fact_spec: str | None,
           operator: str, reason: str, as_json: bool) -> None:
    """Revoke facts in a new commit (history and evidence stay; recall forgets them).

    \b
    Examples:
      memrepo revoke --tenant t1 --message m-42 --operator u1
      memrepo revoke --tenant t1 --fact u1/global:default/preference/editor --operator u1
    """
    fact = lifecycle.parse_fact_ref(fact_spec) if fact_spec else None
    result = lifecycle.revoke(ctx.store(), tenant, message_id=message_id, fact=fact,
                              operator=operator, reason=reason)
    if as_json:
        click.echo(_dump({"revoked": list(result.revoked), "declined": list(result.declined),
                          "commit": result.commit}))
    else:
        click.echo(f"revoked {len(result.revoked)} fact(s), closed {len(result.declined)} "
                   f"pending proposal(s){' in ' + result.commit if result.commit else ''}")


@cli.group()
def policy() -> None:
    """Show or change a tenant's policy (key registry, tiers, rollout mode)."""


@policy.command(name="show")
@click.option("--tenant", help="A tenant's policy (default: the built-in default policy).")
@pass_ctx
@handle_errors
def policy_show(ctx: Context, tenant: str | None) -> None:
    """Print the policy as JSON, with its version.

    \b
    Example:
      memrepo --store ./mem policy show --tenant t1
    """
    from .policy import default_policy

    if tenant:
        repo = ctx.store().tenant(tenant)
        pol = repo.policy(repo.state())
    else:
        pol = default_policy()
    click.echo(json.dumps({"version": pol.version, **pol.to_json()}, ensure_ascii=False,
                          indent=2))


@policy.command(name="set")
@click.option("--tenant", required=True)
@click.argument("source", metavar="FILE")
@click.option("--operator", required=True)
@click.option("--reason", required=True, help="Why the policy changes (in the commit).")
@pass_ctx
@handle_errors
def policy_set(ctx: Context, tenant: str, source: str, operator: str, reason: str) -> None:
    """Validate a policy file and commit it as the tenant's policy.

    \b
    Example:
      memrepo --store ./mem policy set --tenant t1 policy.json --operator admin --reason "..."
    """
    try:
        text = Path(source).read_text("utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror}", code="unreadable") from None
    version = lifecycle.set_policy(ctx.store(), tenant, text, operator=operator, reason=reason)
    click.echo(f"policy {version} committed for {tenant}")


@cli.command(name="stats")
@click.option("--tenant", required=True)
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def stats_cmd(ctx: Context, tenant: str, as_json: bool) -> None:
    """How the gate has been deciding: by decision and reason, confirmations, revocations.

    \b
    Example:
      memrepo --store ./mem stats --tenant acme
    """
    from .stats import stats

    figures = stats(ctx.store(), tenant).to_json()
    if as_json:
        click.echo(_dump(figures))
        return
    for key, value in figures.items():
        if isinstance(value, dict):
            click.echo(f"{key}:")
            for name, count in value.items():
                click.echo(f"  {name:<32} {count}")
        else:
            shown = f"{value:.3f}" if isinstance(value, float) else value
            click.echo(f"{key:<24} {shown}")


@cli.command()
@click.option("--tenant", "tenants", multiple=True, help="Tenant(s) to check (default: all).")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def guard(ctx: Context, tenants: tuple[str, ...], as_json: bool) -> None:
    """Check hard triggers; on any, switch the tenant to shadow mode and exit 2.

    Triggers: a secret in a committed fact, a fact filed under another tenant, a revoked
    fact that a projection still returns. Meant for cron, next to `memrepo snapshot`.

    \b
    Example:
      memrepo --store ./mem guard
    """
    from . import guard as guard_mod

    store = ctx.store()
    alarmed = False
    report = {}
    for tenant in tenants or tuple(store.tenants()):
        findings = guard_mod.scan(store, tenant) + guard_mod.projection_residue(store, tenant)
        version = guard_mod.enforce(store, tenant, findings)
        report[tenant] = {"findings": [f.__dict__ for f in findings], "shadowPolicy": version}
        for f in findings:
            alarmed = True
            click.echo(f"ALERT {tenant}: {f.trigger} at {f.path} ({f.detail}); "
                       f"tenant switched to shadow mode (policy {version})", err=True)
    if as_json:
        click.echo(_dump(report))
    elif not alarmed:
        click.echo("no hard triggers")
    if alarmed:
        sys.exit(2)


def main() -> int:
    cli(prog_name="memrepo")
    return 0


def _register_areas() -> None:
    from . import cli_lifecycle, cli_maintenance, cli_projections, cli_review

    for area in (cli_lifecycle, cli_projections, cli_review, cli_maintenance):
        area.register(cli)


_register_areas()
