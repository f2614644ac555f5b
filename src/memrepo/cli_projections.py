"""CLI commands for projections (registered onto the main group by :mod:`memrepo.cli`)."""

from __future__ import annotations

import click


def register(group: click.Group) -> None:
    """Add this area's commands to the `memrepo` group."""
