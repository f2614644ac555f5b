"""CLI commands for hooks and bulk review (registered onto the main group by :mod:`memrepo.cli`)."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from . import hooks, review
from .cli import EXIT_ERROR, Context, _dump, _lines, handle_errors, pass_ctx
from .errors import InputError


@click.group(name="hooks")
def hooks_group() -> None:
    """Install memrepo's git hooks (pre-receive guard, post-receive nudge)."""


@hooks_group.command(name="install")
@click.option("--tenant", help="Only this tenant's repository (default: every tenant).")
@click.option("--repo", "repo_path", type=click.Path(path_type=Path, exists=True),
              help="Any git repository instead of the store's (e.g. a mirror); pass "
                   "--tenant to say whose memory it holds.")
@pass_ctx
@handle_errors
def hooks_install(ctx: Context, tenant: str | None, repo_path: Path | None) -> None:
    """Install the hooks without clobbering existing ones (kept as <hook>.user and run).

    \b
    Examples:
      memrepo --store ./mem hooks install
      memrepo hooks install --repo /srv/git/t1.git --tenant t1
    """
    if repo_path is not None:
        done = [hooks.install(repo_path, tenant_id=tenant)]
    else:
        store = ctx.store()
        names = [tenant] if tenant else store.tenants()
        done = [hooks.install(store.tenant(t).path) for t in names]
    for d in done:
        kept = "".join(f"; kept your {h} as {where}" for h, where in d.kept)
        wrote = ", ".join(d.written) or "already up to date"
        click.echo(f"{d.repo}: {wrote}{kept}")


@click.command(name="hook", context_settings={"ignore_unknown_options": True})
@click.argument("name", type=click.Choice(hooks.HOOK_NAMES))
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@handle_errors
def hook_cmd(name: str, args: tuple[str, ...]) -> None:
    """Internal: what the installed hook scripts run (reads git's hook input on stdin).

    \b
    Example (what hooks/pre-receive does):
      python -m memrepo hook pre-receive
    """
    stdin = sys.stdin.buffer.read() if name != "post-commit" else b""
    result = hooks.run_hook(name, args, stdin)
    for line in result.messages:
        click.echo(line, err=True)
    sys.exit(result.code)


@click.command(name="import")
@click.option("--tenant", required=True)
@click.argument("source", metavar="FILE|-")
@click.option("--name", help="Review name (default: import-<UTC time>).")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def import_cmd(ctx: Context, tenant: str, source: str, name: str | None, as_json: bool) -> None:
    """Decide many proposals (MemoryProposal JSONL) onto a review branch, not onto main.

    The committable ones go to refs/heads/review/NAME, one gate commit each; conflicts
    with main or within the file, and anything the gate would not commit, are listed.

    \b
    Example:
      memrepo --store ./mem import --tenant t1 migration.jsonl --name crm-2026
      memrepo --store ./mem review show crm-2026 --tenant t1
    """
    name = name or datetime.now(UTC).strftime("import-%Y%m%dT%H%M%SZ")
    try:
        items = list(_lines(source))
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror}", code="unreadable") from None
    report = review.import_proposals(ctx.store(), tenant, items, name=name, source=source)
    if as_json:
        click.echo(_dump(report.to_json()))
        return
    click.echo(f"{report.branch}: {len(report.entries)} of {report.total} proposal(s) on the "
               f"branch, {len(report.findings)} finding(s)")
    _print_findings([f.to_json() for f in report.findings])
    click.echo(f"next: memrepo review show {report.name} --tenant {tenant}")


def _print_findings(findings: list[dict[str, Any]]) -> None:
    for f in findings:
        where = f"line {f['line']}" if f.get("line") is not None else "-"
        click.echo(f"  {where:<10} {f['code']:<18} {f['detail']}")


@click.group(name="review")
def review_group() -> None:
    """Look at, approve and merge review branches made by `memrepo import`."""


@review_group.command(name="list")
@click.option("--tenant", required=True)
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def review_list(ctx: Context, tenant: str, as_json: bool) -> None:
    """Every review branch with its status (open, approved, approval-stale, merged).

    \b
    Example:
      memrepo --store ./mem review list --tenant t1
    """
    rows = [{"name": r.name, "status": r.status, "tip": str(r.tip),
             "proposals": len((r.meta or {}).get("entries", [])),
             "findings": len((r.meta or {}).get("findings", []))}
            for r in review.reviews(ctx.store(), tenant)]
    if as_json:
        click.echo(_dump(rows))
        return
    if not rows:
        click.echo("(no reviews)")
    for row in rows:
        click.echo(f"{row['name']:<24} {row['status']:<15} {row['proposals']:>5} proposal(s) "
                   f"{row['findings']:>5} finding(s)  {row['tip'][:12]}")


@review_group.command(name="show")
@click.argument("name")
@click.option("--tenant", required=True)
@click.option("--patch", is_flag=True, help="Also print a unified diff of the fact files.")
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def review_show(ctx: Context, name: str, tenant: str, patch: bool, as_json: bool) -> None:
    """What merging the review would change on main, as it is now, and the findings.

    \b
    Lines: "+" a new fact, "~" replaces a value on main, "=" the same value again;
    "!" marks a fact that changed on main since the review was made (merge re-decides).
    Example:
      memrepo --store ./mem review show crm-2026 --tenant t1 --patch
    """
    view = review.show(ctx.store(), tenant, name, patch=patch)
    if as_json:
        click.echo(_dump(view.to_json()))
        return
    r = view.review
    click.echo(f"review/{r.name}  {r.status}  tip {str(r.tip)[:12]}  base "
               f"{str(r.base)[:12] if r.base else '-'}  (main has {view.main_ahead} commit(s) "
               "since)")
    if r.approval:
        click.echo(f"approved by {r.approval['approvedBy']} at {r.approval['approvedAt']} "
                   f"(tip {r.approval['tip'][:12]}, {len(r.approval['payloadHashes'])} "
                   "payloadHash(es))")
    for c in view.changes:
        mark = "!" if c.changed_since_review else " "
        was = ""
        if c.main is not None and c.op != "+":
            was = f"   (main: {json.dumps(c.main.value, ensure_ascii=False)} v{c.main.version})"
        click.echo(f"{c.op}{mark} {review.describe(c.entry.proposal)}{was}")
    if view.findings:
        click.echo(f"findings ({len(view.findings)}):")
        _print_findings(list(view.findings))
    if patch and view.patch:
        click.echo(view.patch, nl=False)


@review_group.command(name="approve")
@click.argument("name")
@click.option("--tenant", required=True)
@click.option("--approver", required=True, help="Who approves (recorded with the approval).")
@pass_ctx
@handle_errors
def review_approve(ctx: Context, name: str, tenant: str, approver: str) -> None:
    """Approve the branch tip and its set of payloadHashes (after re-checking each commit).

    \b
    Example:
      memrepo --store ./mem review approve crm-2026 --tenant t1 --approver alice
    """
    approval = review.approve(ctx.store(), tenant, name, approver=approver)
    click.echo(f"approved review/{name} at {approval['tip'][:12]}: "
               f"{len(approval['payloadHashes'])} proposal(s), payload set "
               f"{approval['payloadSet'][:16]}")


@review_group.command(name="merge")
@click.argument("name")
@click.option("--tenant", required=True)
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def review_merge(ctx: Context, name: str, tenant: str, as_json: bool) -> None:
    """Replay an approved review onto main, deciding each proposal again.

    A proposal whose fact changed meanwhile is parked (CONFIRM_REPLACE or CONFLICT)
    and listed, not applied. Exit 1 if anything was not committed.

    \b
    Example:
      memrepo --store ./mem review merge crm-2026 --tenant t1
    """
    def progress(done: int, total: int) -> None:
        if not as_json and sys.stderr.isatty():
            click.echo(f"\rmerging {done}/{total}", err=True, nl=done == total)

    report = review.merge(ctx.store(), tenant, name, progress=progress)
    if as_json:
        click.echo(_dump(report.to_json()))
    else:
        counts = ", ".join(f"{k} {v}" for k, v in sorted(report.counts().items())) or "nothing"
        click.echo(f"merged review/{name}: {counts}")
        for r in report.results:
            if r.decision.decision.value != "COMMIT":
                click.echo(f"  {r.decision.decision.value:<18} "
                           f"{review.describe(r.entry.proposal)}  "
                           f"({', '.join(r.decision.reasons)})")
    if any(r.decision.decision.value != "COMMIT" for r in report.results):
        sys.exit(EXIT_ERROR)


def register(group: click.Group) -> None:
    """Add this area's commands to the `memrepo` group."""
    for command in (hooks_group, hook_cmd, import_cmd, review_group):
        group.add_command(command)
