"""The CLI is thin, but its forms are relied on: exit codes, one-line errors, JSON output."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from conftest import message, proposal
from memrepo.cli import cli

SAMPLE = Path(__file__).resolve().parent.parent / "sample-repo"


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args), input=input, env=env, catch_exceptions=False)


@pytest.fixture
def store_dir(tmp_path: Path) -> str:
    path = str(tmp_path / "mem")
    assert run("--store", path, "--no-fsync", "init").exit_code == 0
    return path


def test_sample_end_to_end(store_dir: str) -> None:
    r = run("--store", store_dir, "--no-fsync", "ingest", str(SAMPLE / "messages.jsonl"))
    assert r.exit_code == 0, r.output
    assert "ingested 15 new message(s)" in r.output
    r = run("--store", store_dir, "--no-fsync", "propose", str(SAMPLE / "proposals.jsonl"),
            "--json")
    assert r.exit_code == 0, r.output
    decisions = [json.loads(line) for line in r.output.splitlines()]
    assert len(decisions) == 15
    by_key = [d["decision"] for d in decisions]
    assert by_key.count("COMMIT") >= 4
    r = run("--store", store_dir, "recall", "--tenant", "acme", "--subject", "u-lin", "--json")
    facts = json.loads(r.output)
    assert {(f["kind"], f["normalizedKey"], f["value"]) for f in facts} >= {
        ("preference", "package_manager", "pnpm"), ("decision", "database", "PostgreSQL")}
    for f in facts:
        assert {"kind", "normalizedKey", "scope", "value", "version", "memoryId"} <= set(f)
    assert all(f["value"] != "记事本" for f in facts)


def test_env_var_replaces_store_option(store_dir: str, tmp_path: Path) -> None:
    src = tmp_path / "m.jsonl"
    src.write_text(json.dumps(message("hi", tenant="t9").to_json()) + "\n")
    r = run("ingest", str(src), env={"MEMREPO_STORE": store_dir, "MEMREPO_FSYNC": "0"})
    assert r.exit_code == 0, r.output


def test_bad_input_is_one_line_and_writes_nothing(store_dir: str, tmp_path: Path) -> None:
    good = json.dumps(message("hi").to_json())
    bad = tmp_path / "bad.jsonl"
    bad.write_text(good + "\n" + '{"messageId": "m2", "messageId": "m3"}\n')
    r = CliRunner().invoke(cli, ["--store", store_dir, "ingest", str(bad)])
    assert r.exit_code == 1
    assert r.stderr.count("\n") == 1 and "duplicate JSON key" in r.stderr
    assert not (Path(store_dir) / "tenants" / "t1.git").exists()  # nothing half-written


def test_propose_reports_every_line_even_bad_ones(store_dir: str, tmp_path: Path) -> None:
    msg = message("Remember that I use pnpm for packages.")
    src = tmp_path / "m.jsonl"
    src.write_text(json.dumps(msg.to_json()) + "\n")
    run("--store", store_dir, "--no-fsync", "ingest", str(src))
    good = json.dumps(proposal(msg, "Remember that I use pnpm"))
    lines = "\n".join([good, "{not json", '{"tenantId": "t1"}', good]) + "\n"
    r = CliRunner().invoke(cli, ["--store", store_dir, "--no-fsync", "propose", "-", "--json"],
                           input=lines)
    assert r.exit_code == 0
    out = [json.loads(line)["decision"] for line in r.stdout.splitlines()]
    assert out == ["COMMIT", "REJECT", "REJECT", "DUPLICATE"]


def test_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["--store", str(tmp_path / "none"), "recall", "--tenant", "t",
                                 "--subject", "s"])
    assert r.exit_code == 1
    assert r.stderr.startswith("Error: ") and "not a memrepo store" in r.stderr


def test_no_store_at_all(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["recall", "--tenant", "t", "--subject", "s"], env={})
    assert r.exit_code == 1 and "--store" in r.stderr


def test_schema_prints_json_schema() -> None:
    r = run("schema")
    schema = json.loads(r.output)
    assert schema["title"] == "MemoryProposal"
    assert schema["additionalProperties"] is False


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = []
    for name, cmd in group.commands.items():
        out.append((*prefix, name))
        if isinstance(cmd, click.Group):
            out.extend(_commands(cmd, (*prefix, name)))
    return out


@pytest.mark.parametrize("path", _commands(cli))
def test_every_command_has_help_with_an_example(path: tuple[str, ...]) -> None:
    r = run(*path, "--help")
    assert r.exit_code == 0
    cmd: click.Command = cli
    for part in path:
        assert isinstance(cmd, click.Group)
        cmd = cmd.commands[part]
    if not isinstance(cmd, click.Group):
        assert "Example" in r.output, f"`memrepo {' '.join(path)} --help` has no example"


def _main_tip(store_dir: str, tenant: str = "t1") -> str:
    import subprocess

    return subprocess.run(["git", "--git-dir", f"{store_dir}/tenants/{tenant}.git", "rev-parse",
                           "main"], capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize(
    "line",
    [
        "{not json",
        '{"tenantId": "t1", "tenantId": "t1"}',
        '{"tenantId": "t1", "value": NaN}',
        '{"tenantId": "t1", "value": "\\ud800"}',
        '{"tenantId": 7}',
        '{"tenantId": "t1", "subjectId": "u1", "explicit": true}',
        json.dumps({"tenantId": "t1", "value": "x" * 5000}),
    ],
    ids=["malformed", "duplicate-key", "nan", "lone-surrogate", "wrong-type", "unknown-field",
         "oversized"],
)
def test_bad_proposals_change_nothing(store_dir: str, tmp_path: Path, line: str) -> None:
    import subprocess

    src = tmp_path / "m.jsonl"
    src.write_text(json.dumps(message("Remember that I use pnpm for packages.").to_json()) + "\n")
    run("--store", store_dir, "--no-fsync", "ingest", str(src))
    before = _main_tip(store_dir)
    r = CliRunner().invoke(cli, ["--store", store_dir, "--no-fsync", "propose", "-", "--json"],
                           input=line + "\n")
    assert r.exit_code == 0
    (decision,) = [json.loads(x) for x in r.stdout.splitlines()]
    assert decision["decision"] == "REJECT" and "invalid_proposal" in decision["reasons"]
    assert _main_tip(store_dir) == before
    fsck = subprocess.run(["git", "--git-dir", f"{store_dir}/tenants/t1.git", "fsck", "--strict"],
                          capture_output=True)
    assert fsck.returncode == 0


def test_policy_set_validates_then_commits(store_dir: str, tmp_path: Path) -> None:
    src = tmp_path / "m.jsonl"
    src.write_text(json.dumps(message("hi").to_json()) + "\n")
    run("--store", store_dir, "--no-fsync", "ingest", str(src))
    shown = json.loads(run("--store", store_dir, "policy", "show", "--tenant", "t1").output)
    old_version = shown.pop("version")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(shown, mode="yolo")))
    before = _main_tip(store_dir)
    r = CliRunner().invoke(cli, ["--store", store_dir, "policy", "set", "--tenant", "t1",
                                 str(bad), "--operator", "admin", "--reason", "try"])
    assert r.exit_code == 1 and "mode" in r.stderr
    assert _main_tip(store_dir) == before
    good = tmp_path / "good.json"
    good.write_text(json.dumps(dict(shown, mode="confirm_only")))
    r = run("--store", store_dir, "--no-fsync", "policy", "set", "--tenant", "t1", str(good),
            "--operator", "admin", "--reason", "rollout: confirm everything first")
    assert r.exit_code == 0, r.output
    now = json.loads(run("--store", store_dir, "policy", "show", "--tenant", "t1").output)
    assert now["mode"] == "confirm_only" and now["version"] != old_version
    assert _main_tip(store_dir) != before
