"""One exception tree for the whole library, each error carrying a machine-readable code.

    MemrepoError (code)
    ├── InputError             bad JSON, schema violations, values JCS cannot represent
    │   └── UnsafeIdError      an id that cannot be used as a path component
    ├── NotFoundError          a tenant, message, fact or proposal that does not exist
    ├── ApprovalError          an approval that does not bind the pending proposal
    ├── StoreError             the repository is missing, corrupt or not a memrepo store
    │   └── ConcurrencyError   compare-and-swap kept failing; nothing was written
    └── PolicyError            a policy file that does not validate

The CLI maps every MemrepoError to one line on stderr and exit code 1; anything
else is a bug and exits 3.
"""

from __future__ import annotations


class MemrepoError(Exception):
    """Base of every error memrepo raises on purpose."""

    code = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


class InputError(MemrepoError):
    code = "invalid_input"


class UnsafeIdError(InputError):
    code = "unsafe_id"


class NotFoundError(MemrepoError):
    code = "not_found"


class ApprovalError(MemrepoError):
    code = "approval_mismatch"


class StoreError(MemrepoError):
    code = "store_error"


class ConcurrencyError(StoreError):
    code = "cas_exhausted"


class PolicyError(MemrepoError):
    code = "invalid_policy"
