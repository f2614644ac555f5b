"""CLI commands for maintenance (registered onto the main group by :mod:`memrepo.cli`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from .recordindex import Check


def _kb(n: float | None) -> str:
    return "-" if n is None else f"{n / 1024:,.1f} KB"


def _index_line(check: Check | None, size: int) -> str:
    if check is None:
        return "unavailable (lookups walk the trees)"
    state = ("rebuilt: it differed from the trees" if check.repaired
             else "verified against the trees" if check.verified else "up to date")
    return f"{check.records:,} record(s), {_kb(size)}, {state}"


def register(group: click.Group) -> None:
    """Add this area's commands to the `memrepo` group."""
    group.add_command(maintenance)


@click.command()
@click.option("--tenant", "tenants", multiple=True, help="Tenant id (repeatable; default: all).")
@click.option("--light", is_flag=True,
              help="Only roll small packs up (what writers start by themselves).")
@click.option("--fast", is_flag=True,
              help="Keep packed objects as they are instead of recomputing deltas and "
                   "recompressing (cheaper on a large tenant, up to 2.5x the bytes).")
@click.option("--no-repack", is_flag=True, help="Skip pack-refs and repack.")
@click.option("--no-fsck", is_flag=True, help="Skip git fsck.")
@click.option("--no-count", is_flag=True,
              help="Skip counting fact versions (lists every object reachable from main).")
@click.option("--stale-after", type=float, default=60.0, show_default=True,
              help="Seconds after which a ref lock or temporary file counts as abandoned.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_obj
def maintenance(obj: object, tenants: tuple[str, ...], light: bool, fast: bool,
                no_repack: bool, no_fsck: bool, no_count: bool, stale_after: float,
                as_json: bool) -> None:
    """Pack objects, clean up, recover stale locks, verify and report sizes.

    Safe while writers run. Writers start a light pass by themselves when small packs
    pile up; run the full pass daily (and after bulk loads) from cron or a timer.

    \b
    Examples:
      memrepo --store ./mem maintenance
      memrepo --store ./mem maintenance --tenant t1 --json
      memrepo --store ./mem maintenance --light
    """
    from . import maintenance as mod
    from .cli import handle_errors

    @handle_errors
    def go() -> None:
        store = obj.store()  # type: ignore[attr-defined]
        ids = list(tenants) or store.tenants()
        if light:
            for tenant_id in ids:
                ran = mod.light(store.tenant(tenant_id).path)
                click.echo(f"{tenant_id}: {'light pass done' if ran else 'busy, skipped'}")
            return
        reports = mod.run(store, ids, repack=not no_repack, fsck=not no_fsck,
                          count=not no_count, recompute_deltas=not fast, stale_after=stale_after,
                          temp_after=stale_after)
        if as_json:
            click.echo(json.dumps([r.to_json() for r in reports], ensure_ascii=False))
        for r in [] if as_json else reports:
            b, a = r.before, r.after
            click.echo(f"{r.tenant_id}: {b.loose_objects:,} loose ({_kb(b.loose_disk_bytes)} "
                       f"on disk), {b.packs} pack(s) {_kb(b.pack_bytes)} -> "
                       f"{a.loose_objects:,} loose, {a.packs} pack(s) {_kb(a.pack_bytes)}")
            click.echo(f"  removed {r.removed_temp_files} temp file(s), "
                       f"{r.removed_spool_files} spool file(s); recovered ref locks: "
                       f"{', '.join(r.recovered_ref_locks) or 'none'}")
            if r.fact_versions is not None:
                click.echo(f"  {r.fact_versions:,} fact version(s), "
                           f"{_kb(r.bytes_per_fact_version)} per fact version")
            click.echo(f"  record index: {_index_line(r.record_index, a.index_bytes)}")
            if r.fsck_ok is not None:
                click.echo(f"  fsck: {'ok' if r.fsck_ok else 'FAILED'}")
                for line in r.fsck_errors:
                    click.echo(f"    {line}")
            if r.skipped:
                click.echo(f"  skipped: {r.skipped}")
        if any(r.fsck_ok is False for r in reports):
            from .errors import StoreError

            raise StoreError("fsck found problems (see above)", code="fsck_failed")

    go()
