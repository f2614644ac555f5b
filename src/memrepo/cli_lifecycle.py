"""CLI commands for lifecycle (registered onto the main group by :mod:`memrepo.cli`).

snapshot, rollback, freeze/unfreeze, edit, merge, split, expire, export, explain, audit.
Each parses its options, makes one library call and renders the result; ``--json``
prints the library's JSON form instead of text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from functools import wraps
from typing import Any, TypeVar

import click

from . import audit as audit_mod
from . import lifecycle, snapshots
from .canonical import loads_strict
from .errors import InputError
from .proposal import parse_time

F = TypeVar("F", bound=Callable[..., Any])


def _errors(func: F) -> F:
    """The main CLI's error handling, looked up at call time (cli imports this module)."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from .cli import handle_errors

        return handle_errors(func)(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _value(text: str | None, as_json: str | None) -> Any:
    if (text is None) == (as_json is None):
        raise InputError("give exactly one of --value TEXT or --value-json JSON", code="usage")
    if text is not None:
        return text
    assert as_json is not None
    return loads_strict(as_json)


def _time(text: str | None) -> datetime | None:
    return parse_time(text) if text else None


_tenant = click.option("--tenant", required=True, help="Tenant id.")
_json = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
_operator = click.option("--operator", required=True, help="Who makes the change (recorded).")
_reason = click.option("--reason", required=True, help="Why (recorded as the change reason).")
_now = click.option("--now", help="Act as of this RFC 3339 time (default: the clock).")


@click.command()
@click.option("--tenant", "tenants", multiple=True,
              help="Tenant to snapshot (repeatable; default: every tenant).")
@click.option("--keep-days", default=snapshots.DEFAULT_KEEP_DAYS, show_default=True, type=int,
              help="Delete snapshot tags older than this many days (commits stay).")
@click.option("--list", "list_only", is_flag=True, help="Only list existing snapshot tags.")
@_now
@_json
@click.pass_obj
@_errors
def snapshot(obj: Any, tenants: tuple[str, ...], keep_days: int, list_only: bool,
             now: str | None, as_json: bool) -> None:
    """Tag today's main as snapshot/YYYY-MM-DD and prune old snapshot tags.

    Idempotent within a (UTC) day: the first run tags, later runs leave the tag where
    it is, so it is safe to run from cron as often as you like.

    \b
    Examples:
      memrepo --store ./mem snapshot                 # every tenant
      memrepo --store ./mem snapshot --tenant t1 --keep-days 90
      memrepo --store ./mem snapshot --tenant t1 --list
    """
    store = obj.store()
    if list_only:
        rows = [{"tenantId": t, "tag": s.name, "commit": str(s.target)}
                for t in (tenants or store.tenants())
                for s in snapshots.list_snapshots(store, t)]
        if as_json:
            click.echo(_dump(rows))
        for r in [] if as_json else rows:
            click.echo(f"{r['tenantId']}  {r['tag']}  {r['commit']}")
        return
    results = snapshots.snapshot(store, tenants or None, keep_days=keep_days, now=_time(now))
    if as_json:
        click.echo(_dump([r.to_json() for r in results]))
        return
    for r in results:
        state = "created" if r.created else "exists"
        pruned = f", pruned {len(r.pruned)}" if r.pruned else ""
        click.echo(f"{r.tenant_id}  {r.tag}  {state}  {r.commit}{pruned}")


def _render_plan(plan: snapshots.RollbackPlan, to: str) -> None:
    click.echo(f"rollback of tenant {plan.tenant_id} to {to} ({plan.target[:12]}), "
               f"main at {plan.base[:12]}")
    for c in plan.changes:
        fact = c.new or c.old
        assert fact is not None
        what = (f"{fact.kind}/{fact.normalized_key} [{fact.scope.kind}:{fact.scope.key}] "
                f"for {fact.subject_id}")
        old = (f"v{c.old.version} {c.old.status.value} {_dump(c.old.value)}" if c.old
               else "(absent)")
        new = (f"v{c.new.version} {c.new.status.value} {_dump(c.new.value)}" if c.new
               else "(absent)")
        if c.action in ("unchanged", "frozen"):
            click.echo(f"  {c.action:<9} {c.memory_id[:12]} {what}: {old}")
        else:
            click.echo(f"  {c.action:<9} {c.memory_id[:12]} {what}: {old} -> {new}")


@click.command()
@_tenant
@click.option("--to", "to", help="Snapshot tag or commit on main to go back to.")
@click.option("--fact", "facts", multiple=True,
              help="memoryId or SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY (repeatable).")
@click.option("--subject", help="Every fact of this subject.")
@click.option("--undo", "undo_commit",
              help="Undo one commit on main (e.g. a rollback): its facts go back to its parent.")
@click.option("--dry-run/--apply", "dry_run", default=True, show_default=True,
              help="Show the diff only (default), or write the restore commit.")
@click.option("--base", help="With --apply: refuse if main is no longer at this commit "
                             "(the 'main at' of the dry run you reviewed).")
@click.option("--operator", default="", help="Who rolls back (required with --apply).")
@click.option("--reason", default="", help="Why (required with --apply).")
@_now
@_json
@click.pass_obj
@_errors
def rollback(obj: Any, tenant: str, to: str | None, facts: tuple[str, ...],
             subject: str | None, undo_commit: str | None, dry_run: bool, base: str | None,
             operator: str, reason: str, now: str | None, as_json: bool) -> None:
    """Put facts back as they were at a snapshot or commit, as one new restore commit.

    Nothing is rewritten: the restore commit (trailers Op: restore, Restore-Target)
    writes the target's fact files byte for byte; a fact that did not exist then is
    marked REVOKED. Without --apply only the diff is shown. A rollback is undone with
    --undo <its commit>. Frozen facts are skipped (unfreeze them first).

    \b
    Examples:
      memrepo rollback --tenant t1 --to snapshot/2026-10-01 --subject u1
      memrepo rollback --tenant t1 --to snapshot/2026-10-01 --fact 3f2a... \\
          --apply --operator admin --reason "bad import on 10-02"
      memrepo rollback --tenant t1 --undo 9c1e... --apply --operator admin --reason oops
    """
    store = obj.store()
    moment = _time(now)
    if undo_commit is not None:
        if to or facts or subject:
            raise InputError("--undo replaces --to/--fact/--subject", code="usage")
        plan = snapshots.undo(store, tenant, undo_commit, operator=operator, reason=reason,
                              apply=not dry_run, now=moment)
        label = f"{undo_commit}^"
    else:
        if to is None:
            raise InputError("rollback needs --to TAG|COMMIT (or --undo COMMIT)", code="usage")
        plan = snapshots.rollback(
            store, tenant, to=to, facts=[lifecycle.fact_target(f) for f in facts],
            subject=subject, operator=operator, reason=reason, apply=not dry_run,
            expect_main=base, now=moment)
        label = to
    if as_json:
        click.echo(_dump(plan.to_json()))
        return
    _render_plan(plan, label)
    if not plan.effective:
        click.echo("nothing to change")
    elif plan.applied:
        click.echo(f"restored {len(plan.effective)} fact(s) in {plan.commit}")
        click.echo(f"undo with: memrepo rollback --tenant {tenant} --undo {plan.commit} --apply "
                   "--operator YOU --reason WHY")
    else:
        click.echo(f"dry run: nothing written. Apply with the same selection and --apply --base "
                   f"{plan.base} --operator YOU --reason WHY")


def _print_admin(result: lifecycle.AdminResult, as_json: bool, verb: str) -> None:
    if as_json:
        click.echo(_dump(result.to_json()))
        return
    if result.commit is None:
        click.echo(f"nothing to {verb}: already so")
        return
    for f in result.facts:
        flags = " frozen" if f.frozen else ""
        click.echo(f"{f.memory_id}  v{f.version} {f.status.value}{flags}  "
                   f"{f.kind}/{f.normalized_key} = {_dump(f.value)}")
    click.echo(f"{verb}: commit {result.commit}")


def _freeze_command(frozen: bool) -> click.Command:
    verb = "freeze" if frozen else "unfreeze"

    @click.command(name=verb)
    @_tenant
    @click.argument("fact")
    @_reason
    @_operator
    @_now
    @_json
    @click.pass_obj
    @_errors
    def command(obj: Any, tenant: str, fact: str, reason: str, operator: str,
                now: str | None, as_json: bool) -> None:
        result = lifecycle.freeze(obj.store(), tenant, lifecycle.fact_target(fact),
                                  operator=operator, reason=reason, frozen=frozen,
                                  now=_time(now))
        _print_admin(result, as_json, verb)

    command.help = (
        "Freeze a fact (admin): the gate rejects every automatic change to it (reason "
        "frozen); it stays readable.\n\n" if frozen else
        "Unfreeze a fact (admin): automatic proposals are decided normally again.\n\n"
    ) + (f"FACT is a memoryId or SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY.\n\n\b\nExample:\n"
         f"  memrepo {verb} --tenant t1 u1/global:default/preference/editor "
         f"--reason \"confirmed by phone\" --operator admin")
    return command


@click.command()
@_tenant
@click.argument("fact")
@click.option("--value", help="The new value, as text.")
@click.option("--value-json", help="The new value, as JSON (e.g. '{\"start\":\"09:00\",...}').")
@click.option("--expires-at", help="RFC 3339 expiry for the new version (default: none).")
@_reason
@_operator
@_now
@_json
@click.pass_obj
@_errors
def edit(obj: Any, tenant: str, fact: str, value: str | None, value_json: str | None,
         expires_at: str | None, reason: str, operator: str, now: str | None,
         as_json: bool) -> None:
    """Set a fact's value as an administrator (source admin_manual; creates it if new).

    FACT is a memoryId or SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY. The value must fit the
    key's type in the policy. A frozen fact stays frozen.

    \b
    Example:
      memrepo edit --tenant t1 u1/global:default/preference/editor --value Neovim \\
          --reason "user asked by email" --operator admin
    """
    result = lifecycle.edit(obj.store(), tenant, lifecycle.fact_target(fact),
                            _value(value, value_json), operator=operator, reason=reason,
                            expires_at=expires_at, now=_time(now))
    _print_admin(result, as_json, "edit")


@click.command()
@_tenant
@click.argument("target")
@click.argument("other")
@click.option("--value", help="The merged value, as text.")
@click.option("--value-json", help="The merged value, as JSON.")
@_reason
@_operator
@_now
@_json
@click.pass_obj
@_errors
def merge(obj: Any, tenant: str, target: str, other: str, value: str | None,
          value_json: str | None, reason: str, operator: str, now: str | None,
          as_json: bool) -> None:
    """Merge OTHER into TARGET (one subject): TARGET gets the value, OTHER is revoked.

    Both keep derivedFrom naming the source messages of both, so revoking either
    original message still revokes the merged fact.

    \b
    Example:
      memrepo merge --tenant t1 u1/global:default/preference/editor \\
          u1/global:default/preference/ide --value Neovim --reason duplicate --operator admin
    """
    result = lifecycle.merge(obj.store(), tenant, lifecycle.fact_target(target),
                             lifecycle.fact_target(other), _value(value, value_json),
                             operator=operator, reason=reason, now=_time(now))
    _print_admin(result, as_json, "merge")


@click.command()
@_tenant
@click.argument("source")
@click.option("--into", "parts", multiple=True, required=True,
              help="SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY=VALUE (repeat, at least twice).")
@click.option("--json-values", is_flag=True, help="Read each VALUE after '=' as JSON.")
@_reason
@_operator
@_now
@_json
@click.pass_obj
@_errors
def split(obj: Any, tenant: str, source: str, parts: tuple[str, ...], json_values: bool,
          reason: str, operator: str, now: str | None, as_json: bool) -> None:
    """Split one fact into several keys of the same subject; the source is revoked
    (unless it is one of the parts).

    \b
    Example:
      memrepo split --tenant t1 u1/global:default/preference/editor \\
          --into "u1/global:default/preference/editor=VS Code" \\
          --into "u1/project:shop-api/preference/editor=Neovim" \\
          --reason "two editors in one value" --operator admin
    """
    pairs = []
    for part in parts:
        spec, sep, raw = part.partition("=")
        if not sep:
            raise InputError(f"--into {part!r}: expected SPEC=VALUE", code="usage")
        pairs.append((lifecycle.parse_fact_ref(spec), loads_strict(raw) if json_values else raw))
    result = lifecycle.split(obj.store(), tenant, lifecycle.fact_target(source), pairs,
                             operator=operator, reason=reason, now=_time(now))
    _print_admin(result, as_json, "split")


@click.command()
@_tenant
@click.option("--operator", default="expire-sweep", show_default=True)
@_now
@_json
@click.pass_obj
@_errors
def expire(obj: Any, tenant: str, operator: str, now: str | None, as_json: bool) -> None:
    """Offer every expired fact for renewal (pending, see `memrepo pending`); deletes nothing.

    Confirming a candidate renews the fact with the same value until the date shown
    (the key's TTL or the fact's previous lifetime from the sweep); declining leaves it
    expired. Recall hides expired facts either way.

    \b
    Example (daily, from cron):
      memrepo --store ./mem expire --tenant t1
    """
    result = lifecycle.expire(obj.store(), tenant, operator=operator, now=_time(now))
    if as_json:
        click.echo(_dump(result.to_json()))
        return
    for r in result.candidates:
        p = r["proposal"]
        click.echo(f"{r['proposalId']}  {p['kind']}/{p['normalizedKey']} = {_dump(p['value'])} "
                   f"for {p['subjectId']}: renew until {p['expiresAt']}?")
    for mid, why in result.skipped:
        click.echo(f"skipped {mid}: {why}")
    click.echo(f"{len(result.candidates)} renewal candidate(s)"
               + (f" in {result.commit}" if result.commit else ""))


@click.command()
@_tenant
@click.option("--history", is_flag=True, help="Every version ever written, oldest first.")
@click.option("--as-of", help="A snapshot tag or commit on main (default: now).")
@click.option("--output", "-o", type=click.Path(dir_okay=False), default="-",
              show_default=True, help="Write JSONL here.")
@click.pass_obj
@_errors
def export(obj: Any, tenant: str, history: bool, as_of: str | None, output: str) -> None:
    """Write every fact (any status) as JSONL, optionally with history or as of a snapshot.

    Each line is a Fact as stored; with --history each line is
    {"commit", "timeMs", "op", "path", "fact"}.

    \b
    Examples:
      memrepo --store ./mem export --tenant t1 > facts.jsonl
      memrepo --store ./mem export --tenant t1 --history --as-of snapshot/2026-10-01 -o h.jsonl
    """
    rows = audit_mod.export(obj.store(), tenant, history=history, as_of=as_of)
    with click.open_file(output, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


@click.command()
@_tenant
@click.argument("fact")
@_json
@click.pass_obj
@_errors
def explain(obj: Any, tenant: str, fact: str, as_json: bool) -> None:
    """Who proposed a fact, on what evidence, who approved it, how to revoke it.

    FACT is a memoryId or SUBJECT/SCOPEKIND:SCOPEKEY/KIND/KEY.

    \b
    Example:
      memrepo --store ./mem explain --tenant t1 u1/global:default/preference/package_manager
    """
    result = audit_mod.explain(obj.store(), tenant, lifecycle.fact_target(fact))
    click.echo(_dump(result.to_json()) if as_json else result.text())


@click.command(name="audit")
@_tenant
@click.option("--since", help="Only operations at or after this RFC 3339 time.")
@click.option("--until", help="Only operations at or before this RFC 3339 time.")
@click.option("--subject", help="Only this subject's operations.")
@click.option("--op", "ops", multiple=True, type=click.Choice(audit_mod.OP_TYPES),
              help="Only these op types (repeatable).")
@_json
@click.pass_obj
@_errors
def audit_cmd(obj: Any, tenant: str, since: str | None, until: str | None,
              subject: str | None, ops: tuple[str, ...], as_json: bool) -> None:
    """Every operation, from git history: op id (commit), memory id, op, versions,
    operator, trigger text, time, change reason, conversation.

    \b
    Examples:
      memrepo --store ./mem audit --tenant t1 --since 2026-10-01T00:00:00Z --op revoke
      memrepo --store ./mem audit --tenant t1 --subject u1 --json
    """
    entries = audit_mod.audit(obj.store(), tenant, since=_time(since), until=_time(until),
                              subject=subject, ops=ops or None)
    if as_json:
        click.echo(_dump([e.to_json() for e in entries]))
        return
    if not entries:
        click.echo("(no operations)")
    for e in entries:
        when = datetime.fromtimestamp(e.time_ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")
        old = f"v{e.old_version}" if e.old_version is not None else "-"
        new = f"v{e.new_version}" if e.new_version is not None else "-"
        versions = f"{old} -> {new}"
        trigger = _dump(e.trigger)[:80] if e.trigger is not None else "-"
        click.echo(f"{when[:-3]}Z {e.op:<8} {(e.memory_id or '-')[:12]:<12} {versions:<10} "
                   f"{e.op_id[:12]} by {e.operator or '-'}: {trigger}"
                   + (f" [conv {e.conversation_id}]" if e.conversation_id else ""))


def register(group: click.Group) -> None:
    """Add this area's commands to the `memrepo` group."""
    for command in (snapshot, rollback, _freeze_command(True), _freeze_command(False), edit,
                    merge, split, expire, export, explain, audit_cmd):
        group.add_command(command)

