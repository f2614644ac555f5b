"""CLI commands for projections (registered onto the main group by :mod:`memrepo.cli`)."""

from __future__ import annotations

import sys

import click

from . import projections
from .cli import EXIT_ERROR, Context, _dump, handle_errors, pass_ctx

_EMBEDDER_HELP = ("Embedder for the vector projection: hash (default), hash:DIM or "
                  "module:attr (or $MEMREPO_EMBEDDER).")


def _embedder(spec: str | None) -> projections.Embedder:
    return projections.load_embedder(spec)


@click.command(name="search")
@click.option("--tenant", required=True)
@click.option("--subject", required=True)
@click.argument("query")
@click.option("--vector", is_flag=True, help="Rank by embedding similarity instead of words.")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(min=1))
@click.option("--embedder", "embedder_spec", help=_EMBEDDER_HELP)
@click.option("--json", "as_json", is_flag=True, help="A JSON array of hits.")
@pass_ctx
@handle_errors
def search_cmd(ctx: Context, tenant: str, subject: str, query: str, vector: bool, limit: int,
               embedder_spec: str | None, as_json: bool) -> None:
    """Search a subject's live facts (the projection is brought up to main first).

    Words match by prefix in any language; Chinese/Japanese/Korean by characters.

    \b
    Examples:
      memrepo --store ./mem search --tenant t1 --subject u1 "package manager"
      memrepo --store ./mem search --tenant t1 --subject u1 北京 --vector --json
    """
    hits = projections.search(ctx.store(), tenant, subject, query, vector=vector, limit=limit,
                              embedder=_embedder(embedder_spec) if vector else None)
    if as_json:
        click.echo(_dump([h.to_json() for h in hits]))
        return
    if not hits:
        click.echo(f"(no live facts of {subject} match)")
    for h in hits:
        click.echo(f"{h.score:7.3f}  {h.kind}/{h.normalized_key} [{h.scope['kind']}:"
                   f"{h.scope['key']}] = {_dump(h.value)}  (v{h.version}, {h.memory_id[:12]})")


@click.group(name="projections")
def projections_group() -> None:
    """Keep the SQLite full-text and vector projections in step with main."""


@projections_group.command(name="sync")
@click.option("--tenant", required=True)
@click.option("--embedder", "embedder_spec", help=_EMBEDDER_HELP)
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def sync_cmd(ctx: Context, tenant: str, embedder_spec: str | None, as_json: bool) -> None:
    """Apply the commits on main that each projection has not seen yet.

    \b
    Example:
      memrepo --store ./mem projections sync --tenant t1
    """
    results = projections.sync_all(ctx.store(), tenant, embedder=_embedder(embedder_spec))
    if as_json:
        click.echo(_dump([{"projection": r.consumer, "position": r.position,
                           "commits": r.commits, "events": r.events} for r in results]))
        return
    for r in results:
        click.echo(f"{r.consumer:<36} +{r.commits} commit(s), {r.events} event(s), "
                   f"at {(r.position or '-')[:12]}")


@projections_group.command(name="rebuild")
@click.option("--tenant", required=True)
@click.option("--at", "at", metavar="COMMIT", help="A commit, tag or ref (default: main).")
@click.option("--embedder", "embedder_spec", help=_EMBEDDER_HELP)
@pass_ctx
@handle_errors
def rebuild_cmd(ctx: Context, tenant: str, at: str | None, embedder_spec: str | None) -> None:
    """Rebuild every projection from the snapshot of one commit (not from the history).

    \b
    Example:
      memrepo --store ./mem projections rebuild --tenant t1 --at main~10
    """
    for name, count in projections.rebuild_all(ctx.store(), tenant, at=at,
                                               embedder=_embedder(embedder_spec)):
        click.echo(f"{name:<36} rebuilt from {count} fact file(s)")


@projections_group.command(name="verify")
@click.option("--tenant", required=True)
@click.option("--sync/--no-sync", default=True, show_default=True,
              help="Sync first; with --no-sync a projection that lags counts as drift.")
@click.option("--embedder", "embedder_spec", help=_EMBEDDER_HELP)
@click.option("--json", "as_json", is_flag=True)
@pass_ctx
@handle_errors
def verify_cmd(ctx: Context, tenant: str, sync: bool, embedder_spec: str | None,
               as_json: bool) -> None:
    """Compare every projection with the live facts on main; exit 1 on any drift.

    Drift is missing (live on main, not searchable here), stale (other version or
    value) or extra (searchable here, not live on main: e.g. residue of a revocation).

    \b
    Example:
      memrepo --store ./mem projections verify --tenant t1
    """
    reports = projections.verify_all(ctx.store(), tenant, embedder=_embedder(embedder_spec),
                                     sync=sync)
    if as_json:
        click.echo(_dump([r.to_json() for r in reports]))
    else:
        for r in reports:
            state = "ok" if r.ok else f"DRIFT ({len(r.drift)})"
            click.echo(f"{r.projection:<36} {state}: {r.live_here} live here, "
                       f"{r.live_on_main} on main {r.main_commit[:12]}, "
                       f"revocation residue {r.revocation_residue}")
            for d in r.drift:
                click.echo(f"  {d.kind:<8} {d.memory_id}  {d.detail}")
    if not all(r.ok for r in reports):
        sys.exit(EXIT_ERROR)


def register(group: click.Group) -> None:
    """Add this area's commands to the `memrepo` group."""
    group.add_command(search_cmd)
    group.add_command(projections_group)
