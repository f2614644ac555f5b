"""Hard triggers: conditions under which a tenant stops auto-committing at once.

A committed fact that holds a secret, a fact file filed under another tenant, or a
revoked fact that a projection still serves means something upstream is broken. The
guard switches the tenant to ``shadow`` mode in one policy commit (recall keeps serving
the facts that are there) and reports loudly; people then investigate and switch back
with ``memrepo policy set``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from . import lifecycle, secrets
from .proposal import FactStatus
from .store import Store


@dataclass(frozen=True)
class Finding:
    trigger: str            # secret_committed | cross_tenant_fact | revocation_residue
    path: str
    detail: str


def scan(store: Store, tenant_id: str, *, residue: Sequence[str] = ()) -> list[Finding]:
    """Everything on main that must never be there. ``residue``: memoryIds a projection
    still serves although they are revoked (from ``projections verify``)."""
    tenant = store.tenant(tenant_id)
    findings: list[Finding] = []
    for path, fact in tenant.all_facts(tenant.state()):
        if fact.tenant_id != tenant_id:
            findings.append(Finding("cross_tenant_fact", path,
                                    f"fact names tenant {fact.tenant_id!r}"))
        if fact.status is FactStatus.ACTIVE and secrets.find_secrets_in_value(fact.value):
            kinds = sorted({f.kind for f in secrets.find_secrets_in_value(fact.value)})
            findings.append(Finding("secret_committed", path, ", ".join(kinds)))
    findings += [Finding("revocation_residue", mid, "revoked fact still projected")
                 for mid in residue]
    return findings


def projection_residue(store: Store, tenant_id: str) -> list[Finding]:
    """Revoked facts that an existing projection can still return (after syncing it)."""
    from . import projections

    if not projections.projection_dir(store, tenant_id).exists():
        return []
    return [Finding("revocation_residue", report.path,
                    f"{report.revocation_residue} revoked fact(s) still searchable")
            for report in projections.verify_all(store, tenant_id)
            if report.revocation_residue]


def enforce(store: Store, tenant_id: str, findings: Sequence[Finding], *,
            now: datetime | None = None) -> str | None:
    """Switch the tenant to shadow mode if anything was found; returns the policy version."""
    if not findings:
        return None
    tenant = store.tenant(tenant_id)
    policy = tenant.policy(tenant.state())
    if policy.mode == "shadow":
        return policy.version
    triggers = sorted({f.trigger for f in findings})
    data = dict(policy.to_json(), mode="shadow")
    return lifecycle.set_policy(
        store, tenant_id, data, operator="memrepo-guard",
        reason=f"hard trigger ({', '.join(triggers)}): switched to shadow mode", now=now)
