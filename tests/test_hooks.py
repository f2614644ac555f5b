"""The git hooks on real repositories: real `git push` through the installed scripts, and
the pre-receive checker against every kind of forgery it must catch."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

import pygit2
import pytest

from conftest import NOW, git_env, message, proposal
from memrepo import _git, canonical, gate, hooks, layout, lifecycle
from memrepo.proposal import DecisionKind, parse_proposal
from memrepo.store import Store, TenantRepo

PNPM = "Remember that I use pnpm for packages."


def git(*args: str | Path, cwd: Path | None = None, check: bool = True
        ) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["git", *map(str, args)], cwd=cwd, env=git_env(), text=True,
                          capture_output=True, check=False)
    if check and done.returncode:
        raise AssertionError(f"git {' '.join(map(str, args))} failed:\n{done.stderr}")
    return done


def committed(store: Store, text: str = PNPM, *, mid: str = "m1", quote: str | None = None,
              **kw: Any) -> gate.Decision:
    tenant = store.tenant("t1", create=True)
    tenant.ingest([message(text, mid=mid)])
    msg = tenant.message(mid, tenant.state())
    assert msg is not None
    decision = gate.submit(store, proposal(msg, quote or text.rstrip("."), **kw), now=NOW)
    return decision


# -- installing ----------------------------------------------------------------------


def test_shipped_scripts_are_the_builtin_template() -> None:
    """hooks/ is what people read; the built-in copy (for wheels) must say the same."""
    for name in hooks.HOOK_NAMES:
        shipped = (Path(__file__).resolve().parents[1] / "hooks" / name).read_text()
        assert shipped == hooks._TEMPLATE.replace("@HOOK@", name)
        assert os.access(Path(__file__).resolve().parents[1] / "hooks" / name, os.X_OK)


def test_new_tenants_get_the_hooks_with_this_python(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    script = (tenant.path / "hooks" / "pre-receive").read_text()
    assert hooks.MARKER in script
    import sys

    assert f"exec {sys.executable} -m memrepo hook pre-receive" in script
    assert not (tenant.path / "hooks" / "post-commit").exists()  # bare: no commits there


def test_install_keeps_a_user_hook_and_reinstall_is_idempotent(tmp_path: Path) -> None:
    repo = tmp_path / "r.git"
    pygit2.init_repository(str(repo), bare=True)
    user = repo / "hooks" / "post-receive"
    user.parent.mkdir(exist_ok=True)
    user.write_text("#!/bin/sh\necho mine\n")
    user.chmod(0o755)
    first = hooks.install(repo, tenant_id="t1")
    assert ("post-receive", str(repo / "hooks" / "post-receive.user")) in first.kept
    assert (repo / "hooks" / "post-receive.user").read_text() == "#!/bin/sh\necho mine\n"
    again = hooks.install(repo)
    assert again.written == () and again.kept == ()
    # A foreign hook that appears later goes to post-receive.d/, not over the first one.
    user.write_text("#!/bin/sh\necho second\n")
    third = hooks.install(repo)
    assert third.kept == (("post-receive", str(repo / "hooks" / "post-receive.d" /
                                               "00-previous")),)
    assert [p.name for p in hooks.chained_hooks(repo / "hooks", "post-receive")] == [
        "post-receive.user", "00-previous"]


# -- real pushes -----------------------------------------------------------------------


@pytest.fixture
def central(store: Store) -> TenantRepo:
    """The store's tenant repository (hooks installed at creation) with one gate commit."""
    assert committed(store).decision is DecisionKind.COMMIT
    return store.tenant("t1")


@pytest.fixture
def other(central: TenantRepo, tmp_path: Path) -> Path:
    """A second store working on a clone of the same tenant; its newest commit on main
    is a legitimate gate commit that the central repository does not have yet."""
    store2 = Store.init(tmp_path / "other", durable=False)
    path = store2.tenant_path("t1")
    git("clone", "-q", "--bare", central.path, path)
    (path / "memrepo-tenant").write_text("t1")
    done = committed(store2, "Remember that I use Neovim as my editor.", mid="m9",
                     quote="Remember that I use Neovim", key="editor", value="Neovim")
    assert done.decision is DecisionKind.COMMIT
    return path


def test_a_forged_commit_is_refused_with_its_id_and_reason(central: TenantRepo, other: Path,
                                                           tmp_path: Path) -> None:
    work = tmp_path / "work"
    git("clone", "-q", other, work)
    fact = next(work.glob("facts/*/*/u1/global@default/preference@editor.json"))
    fact.write_text(fact.read_text().replace('"Neovim"', '"Emacs"'))
    trailers = git("log", "-1", "--format=%B", cwd=work).stdout
    git("commit", "-q", "-a", "--amend", "-m", trailers, cwd=work)  # value edited by hand
    forged = git("rev-parse", "HEAD", cwd=work).stdout.strip()
    before = _git.resolve(central.repo, layout.MAIN_REF)
    push = git("push", central.path, "main", cwd=work, check=False)
    assert push.returncode != 0
    assert f"memrepo: refusing refs/heads/main: commit {forged}: fact " in push.stderr
    assert "payloadHash does not match" in push.stderr
    assert _git.resolve(central.repo, layout.MAIN_REF) == before
    # The same edit as a new commit on top, trailers copied: a replay of a decided proposal.
    git("reset", "-q", "--hard", "origin/main", cwd=work)
    git("push", "-q", central.path, "main", cwd=work)
    fact.write_text(fact.read_text().replace('"Neovim"', '"Emacs"'))
    git("commit", "-q", "-a", "-m", trailers, cwd=work)
    push = git("push", central.path, "main", cwd=work, check=False)
    assert push.returncode != 0 and "is already on main in the parent" in push.stderr


def test_a_legit_commit_from_another_store_is_accepted_and_nudges(central: TenantRepo,
                                                                  other: Path,
                                                                  tmp_path: Path) -> None:
    user_hook = central.path / "hooks" / "post-receive.d" / "10-mine"
    user_hook.parent.mkdir()
    user_hook.write_text(f"#!/bin/sh\ncat > {tmp_path / 'user-hook-ran'}\n")
    user_hook.chmod(0o755)
    push = git("push", central.path, "main", cwd=other, check=False)
    assert push.returncode == 0, push.stderr
    assert str(_git.resolve(central.repo, layout.MAIN_REF)) == git(
        "rev-parse", "main", cwd=other).stdout.strip()
    nudge = json.loads((central.path / hooks.NUDGE_FILE).read_text())
    assert nudge["updates"][0]["ref"] == "refs/heads/main"
    assert "refs/heads/main" in (tmp_path / "user-hook-ran").read_text()


def test_a_mirror_keeps_its_own_hook_and_accepts_the_whole_history(central: TenantRepo,
                                                                    tmp_path: Path) -> None:
    """A bare repository that already had a post-receive hook gets memrepo's installed
    over it; a push of a memrepo history (from the root) passes every check, and both
    the user's hook and the nudge run."""
    mirror = tmp_path / "mirror.git"
    git("init", "-q", "--bare", mirror)
    mine = mirror / "hooks" / "post-receive"
    mine.write_text(f"#!/bin/sh\ncat > {tmp_path / 'mine-ran'}\n")
    mine.chmod(0o755)
    hooks.install(mirror, tenant_id="t1")
    push = git("push", mirror, "main", cwd=central.path, check=False)
    assert push.returncode == 0, push.stderr
    assert "refs/heads/main" in (tmp_path / "mine-ran").read_text()
    assert (mirror / hooks.NUDGE_FILE).exists()
    assert git("rev-parse", "main", cwd=mirror).stdout.strip() == str(
        _git.resolve(central.repo, layout.MAIN_REF))


def test_force_push_and_delete_of_main_are_refused(central: TenantRepo,
                                                   tmp_path: Path) -> None:
    # Let git itself allow both, to show that the hook is what refuses them.
    central.repo.config["receive.denyNonFastForwards"] = "false"
    central.repo.config["receive.denyDeletes"] = "false"
    work = tmp_path / "work"
    git("clone", "-q", central.path, work)
    git("reset", "-q", "--hard", "HEAD~1", cwd=work)
    git("commit", "-q", "--allow-empty", "-m", "rewrite", cwd=work)
    push = git("push", "--force", "origin", "main", cwd=work, check=False)
    assert push.returncode != 0
    assert "non-fast-forward update of refs/heads/main" in push.stderr
    delete = git("push", "origin", ":main", cwd=work, check=False)
    assert delete.returncode != 0
    assert "deleting refs/heads/main is not allowed" in delete.stderr
    assert _git.resolve(central.repo, layout.MAIN_REF) is not None


def test_a_user_pre_receive_hook_still_runs_and_can_refuse(central: TenantRepo,
                                                           tmp_path: Path) -> None:
    (central.path / "hooks" / "pre-receive.user").write_text(
        "#!/bin/sh\necho 'policy of the house: no pushes today' >&2\nexit 7\n")
    (central.path / "hooks" / "pre-receive.user").chmod(0o755)
    work = tmp_path / "work"
    git("clone", "-q", central.path, work)
    git("checkout", "-q", "-b", "notes", cwd=work)
    git("commit", "-q", "--allow-empty", "-m", "a note", cwd=work)
    push = git("push", "origin", "notes", cwd=work, check=False)
    assert push.returncode != 0 and "no pushes today" in push.stderr


def test_post_commit_nudges_in_a_work_tree(tmp_path: Path) -> None:
    work = tmp_path / "work"
    git("init", "-q", "-b", "main", work)
    installed = hooks.install(work)
    assert "post-commit" in installed.written
    git("commit", "-q", "--allow-empty", "-m", "hello", cwd=work)
    nudge = json.loads((work / ".git" / hooks.NUDGE_FILE).read_text())
    head = git("rev-parse", "HEAD", cwd=work).stdout.strip()
    assert nudge["updates"] == [{"old": None, "new": head, "ref": "refs/heads/main"}]


# -- the checker, commit by commit ---------------------------------------------------------


def rewrite(tenant: TenantRepo, commit: pygit2.Commit, *,
            files: Mapping[str, bytes | None] | None = None,
            message: str | None = None) -> str:
    """A copy of ``commit`` (same parent) with some files changed: a forgery."""
    changes = {p: (None if b is None else _git.write_blob(tenant.repo, b))
               for p, b in (files or {}).items()}
    tree = _git.edit_tree(tenant.repo, commit.tree, changes)
    return str(_git.create_commit(tenant.repo, tree=tree, parents=list(commit.parent_ids),
                                  message=commit.message if message is None else message,
                                  author=_git.Author("mallory", "m@example.invalid")))


def refusal(tenant: TenantRepo, commit: pygit2.Commit, forged: str) -> str:
    found = hooks.check_history(tenant, str(commit.parent_ids[0]), forged)
    assert len(found) == 1 and found[0].commit == forged
    return found[0].reason


def with_value(tenant: TenantRepo, commit: pygit2.Commit, value: Any
               ) -> tuple[dict[str, bytes | None], str]:
    """Fact, record and trailer rewritten consistently (hash recomputed): only the
    gate's own checks can tell."""
    t = dict(_git.trailer_lines(commit.message))
    rec_path = layout.proposal_path(t["Proposal-Id"])
    record = json.loads(_git.lookup_blob(tenant.repo, commit.tree, rec_path) or b"")
    fact_path = record["factPath"]
    fact = json.loads(_git.lookup_blob(tenant.repo, commit.tree, fact_path) or b"")
    p = record["proposal"]
    ph = canonical.payload_hash(value=value, confidence=p["confidence"],
                                expires_at=p.get("expiresAt"),
                                evidence_hash=p["evidence"]["sha256"])
    record.update(payloadHash=ph, proposal={**p, "value": value})
    fact.update(payloadHash=ph, value=value)
    files: dict[str, bytes | None] = {rec_path: canonical.dumps_pretty(record),
                                      fact_path: canonical.dumps_pretty(fact)}
    return files, commit.message.replace(t["Payload-Hash"], ph)


def fact_path_of(tenant: TenantRepo, commit: pygit2.Commit) -> str:
    rec = json.loads(_git.lookup_blob(tenant.repo, commit.tree, layout.proposal_path(
        dict(_git.trailer_lines(commit.message))["Proposal-Id"])) or b"")
    return str(rec["factPath"])


Forgery = Callable[[TenantRepo, pygit2.Commit], tuple[dict[str, bytes | None], str | None]]

FORGERIES: list[tuple[str, Forgery, str]] = [
    # the value edited by hand, trailers copied
    ("hand_edit", lambda t, c: ({fact_path_of(t, c): (_git.lookup_blob(
        t.repo, c.tree, fact_path_of(t, c)) or b"").replace(b'"pnpm"', b'"yarn"')}, None),
     "payloadHash does not match"),
    # value, record and every hash rewritten consistently: the evidence does not say it
    ("consistent_rewrite", lambda t, c: with_value(t, c, "yarn"),
     "the gate would not have committed"),
    # a secret smuggled in the same way
    ("secret", lambda t, c: with_value(
        t, c, "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"), "contains a secret"),
    # same JSON, different bytes
    ("not_canonical", lambda t, c: ({fact_path_of(t, c): json.dumps(json.loads(
        _git.lookup_blob(t.repo, c.tree, fact_path_of(t, c)) or b"")).encode()}, None),
     "not in canonical form"),
    ("no_record", lambda t, c: ({layout.proposal_path(dict(_git.trailer_lines(c.message))[
        "Proposal-Id"]): None}, None), "proposal record"),
    ("no_message", lambda t, c: ({layout.message_path("m1"): None}, None), "source message"),
    ("extra_change", lambda t, c: ({"notes.txt": b"hello\n"}, None),
     "unexpected change to notes.txt"),
    ("policy_smuggled", lambda t, c: ({layout.POLICY_PATH: b"{}\n"}, None),
     "unexpected change to policy.json"),
    ("no_trailers", lambda t, c: ({}, "fix typo\n"), "not a memrepo commit"),
    ("trailer_missing", lambda t, c: ({}, c.message.replace("Source-Message: m1\n", "")),
     "missing trailer(s) Source-Message"),
    ("trailer_twice", lambda t, c: ({}, c.message + "Decision: COMMIT\n"),
     "trailer Decision appears more than once"),
    ("wrong_policy_version", lambda t, c: ({}, c.message.replace(
        f"Policy-Version: {t.policy(t.state()).version}", "Policy-Version: 0000")),
     "Policy-Version"),
]


@pytest.mark.parametrize(("case", "forge", "expected"), FORGERIES, ids=[f[0] for f in FORGERIES])
def test_forgeries_are_refused(central: TenantRepo, case: str, forge: Forgery,
                               expected: str) -> None:
    commit = _git.commit_of(central.repo, "main")
    assert commit is not None
    assert hooks.check_history(central, str(commit.parent_ids[0]), str(commit.id)) == []
    files, msg = forge(central, commit)
    forged = rewrite(central, commit, files=files, message=msg)
    assert expected in refusal(central, commit, forged)


@pytest.mark.parametrize("mode", [pygit2.GIT_FILEMODE_LINK, pygit2.GIT_FILEMODE_BLOB_EXECUTABLE])
def test_a_file_turned_into_a_symlink_or_executable_is_refused(central: TenantRepo,
                                                                mode: int) -> None:
    commit = _git.commit_of(central.repo, "main")
    assert commit is not None
    builder = central.repo.TreeBuilder(commit.tree)
    builder.insert(layout.POLICY_PATH, commit.tree[layout.POLICY_PATH].id, mode)
    forged = _git.create_commit(central.repo, tree=builder.write(), parents=[commit.id],
                                message=commit.message, author=_git.Author("m", "m@x"))
    found = hooks.check_history(central, str(commit.id), str(forged))
    assert found[0].reason == f"policy.json is not a regular file (mode {mode:o})"


def test_a_deny_tier_key_is_refused(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    tenant.ingest([message("Remember that my religion is Jedi.", mid="m1")])
    msg = tenant.message("m1", tenant.state())
    assert msg is not None
    p = parse_proposal(proposal(msg, "my religion is Jedi", kind="profile",
                                     key="religion", value="Jedi"))
    state = tenant.state()
    a = gate.assess(tenant, state, p, NOW)
    assert a.verdict.decision is DecisionKind.REJECT
    # Write it as if the gate had said COMMIT, as a malicious library user could.
    forged = _unpublished_commit(tenant, a)
    reason = hooks.check_history(tenant, str(state.main), forged)[0].reason
    assert "deny-tier key" in reason


def _unpublished_commit(tenant: TenantRepo, a: gate.Assessment) -> str:
    from memrepo.review import _BranchWriter

    state = tenant.state()
    done = gate.commit_fact(_BranchWriter(tenant), state, a, NOW, reasons=("forged",),
                            operator="gate")
    assert done is not None and done.commit is not None
    return done.commit


def test_a_parked_proposal_committed_without_approval_is_refused(store: Store) -> None:
    tenant = store.tenant("t1", create=True)
    tenant.ingest([message("I think I might use pnpm for packages, not sure.", mid="m1")])
    msg = tenant.message("m1", tenant.state())
    assert msg is not None
    p = parse_proposal(proposal(msg, "I think I might use pnpm"))
    a = gate.assess(tenant, tenant.state(), p, NOW)
    assert a.verdict.decision is DecisionKind.NEEDS_CONFIRMATION
    forged = _unpublished_commit(tenant, a)
    reason = hooks.check_history(tenant, str(tenant.state().main), forged)[0].reason
    assert "the gate would not have committed this proposal on its parent: NEEDS_CONFIRMATION" \
        in reason


def test_every_library_commit_kind_passes_the_checker(store: Store) -> None:
    """Gate commits, a confirmation, an admin edit, a revoke and a policy change, as the
    library writes them, are all accepted: the hook refuses only what bypasses it."""
    committed(store)
    tenant = store.tenant("t1")
    tenant.ingest([message("I think I might use Neovim as my editor.", mid="m2"),
                   message("Remember that I use yarn for packages.", mid="m3")])
    msg2 = tenant.message("m2", tenant.state())
    assert msg2 is not None
    parked = gate.submit(store, proposal(msg2, "I think I might use Neovim", key="editor",
                                         value="Neovim"), now=NOW)
    assert parked.decision is DecisionKind.NEEDS_CONFIRMATION
    assert parked.proposal_id and parked.payload_hash
    done = lifecycle.confirm(store, "t1", parked.proposal_id, parked.payload_hash,
                             approver="u1", now=NOW + timedelta(minutes=1))
    assert done.decision is DecisionKind.COMMIT
    ref = lifecycle.FactRef("u1", {"kind": "global", "key": "default"}, "preference", "diet")
    lifecycle.admin_set(store, "t1", ref, "vegetarian", operator="admin", reason="seed",
                        now=NOW + timedelta(minutes=2))
    lifecycle.revoke(store, "t1", message_id="m1", operator="u1",
                     now=NOW + timedelta(minutes=3))
    msg3 = tenant.message("m3", tenant.state())
    assert msg3 is not None
    again = gate.submit(store, proposal(msg3, "Remember that I use yarn", value="yarn"),
                        now=NOW + timedelta(minutes=4))
    assert again.decision is DecisionKind.COMMIT and again.version == 3
    policy = tenant.policy(tenant.state()).to_json()
    policy["commitThreshold"] = 0.7
    lifecycle.set_policy(store, "t1", policy, operator="admin", reason="looser",
                         now=NOW + timedelta(minutes=5))
    assert hooks.check_history(tenant, None, str(tenant.state().main)) == []


def test_the_audit_ref_only_moves_forward_and_keeps_messages(central: TenantRepo) -> None:
    state = central.state()
    assert state.audit is not None and state.audit_tree is not None
    path = layout.message_path("m1")
    changed = _git.edit_tree(central.repo, state.audit_tree, {
        path: _git.write_blob(central.repo, b"{}\n")})
    commit = _git.create_commit(central.repo, tree=changed, parents=[state.audit],
                                message="edit\n", author=_git.Author("m", "m@x"))
    found = hooks.check_push(central.path, [
        hooks.RefUpdate(str(state.audit), str(commit), layout.AUDIT_REF)])
    assert "immutable" in found[0].reason
    gone = hooks.check_push(central.path, [
        hooks.RefUpdate(str(state.audit), None, layout.AUDIT_REF)])
    assert "deleting the audit ref" in gone[0].reason


def test_lifecycle_commit_kinds_pass_the_checker(store: Store) -> None:
    """Freeze, unfreeze, edit, merge, split, a renewal after expiry, a rollback and its
    undo, as the library writes them, all pass; the checker knows every kind."""
    from memrepo import snapshots

    t = NOW
    committed(store)                                           # package_manager = pnpm
    tenant = store.tenant("t1")
    tenant.ingest([message("Remember that I use Neovim as my editor.", mid="m2"),
                   message("Remember that I'm working on the billing export.", mid="m3")])
    msg2, msg3 = (tenant.message(m, tenant.state()) for m in ("m2", "m3"))
    assert msg2 is not None and msg3 is not None
    gate.submit(store, proposal(msg2, "Remember that I use Neovim", key="editor",
                                value="Neovim"), now=t)
    task = gate.submit(store, proposal(msg3, "I'm working on the billing export",
                                       kind="task_fact", key="current_task",
                                       value="billing export",
                                       expiresAt="2026-10-20T00:00:00Z"), now=t)
    first = str(tenant.state().main)
    pm = lifecycle.FactRef("u1", {"kind": "global", "key": "default"}, "preference",
                           "package_manager")
    editor = lifecycle.FactRef("u1", {"kind": "global", "key": "default"}, "preference",
                               "editor")
    lifecycle.freeze(store, "t1", pm, operator="admin", reason="pin", now=t)
    lifecycle.freeze(store, "t1", pm, operator="admin", reason="unpin", frozen=False, now=t)
    lifecycle.edit(store, "t1", editor, "VS Code", operator="admin", reason="fix", now=t)
    drink = lifecycle.FactRef("u1", {"kind": "global", "key": "default"}, "preference",
                              "drink")
    diet = lifecycle.FactRef("u1", {"kind": "global", "key": "default"}, "preference", "diet")
    lifecycle.edit(store, "t1", drink, "tea", operator="admin", reason="seed", now=t)
    lifecycle.merge(store, "t1", editor, drink, "VS Code", operator="admin", reason="dedupe",
                    now=t)
    lifecycle.split(store, "t1", pm, [(pm, "pnpm"), (diet, "vegan")], operator="admin",
                    reason="split", now=t)
    if task.decision is DecisionKind.COMMIT:
        swept = lifecycle.expire(store, "t1", now=t + timedelta(days=7))
        for record in swept.candidates:
            renewed = lifecycle.confirm(store, "t1", record["proposalId"],
                                        record["payloadHash"], approver="u1",
                                        now=t + timedelta(days=7, minutes=1))
            assert renewed.decision is DecisionKind.COMMIT
    plan = snapshots.rollback(store, "t1", to=first, subject="u1", operator="admin",
                              reason="back", apply=True, now=t + timedelta(days=8))
    assert plan.commit is not None
    snapshots.undo(store, "t1", plan.commit, operator="admin", reason="forward", apply=True,
                   now=t + timedelta(days=8, minutes=1))
    kinds = [hooks.commit_kind(dict(_git.trailer_lines(c.message)), root=not c.parent_ids)
             for c in _git.first_parent_chain(tenant.repo, tenant.state().main)]
    assert {"gate", "admin", "renew", "restore"} <= set(kinds)
    assert hooks.check_history(tenant, None, str(tenant.state().main)) == []
