"""`memrepo eval` on the public sample and on our own corpus, through the real library."""

from __future__ import annotations

import importlib.util
import json
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import SHARED_EVAL
from memrepo import evaluation
from memrepo.cli import cli

CASES = Path(__file__).resolve().parent / "cases"
CORPUS = sorted(CASES.glob("*.jsonl"))


def test_public_dev_cases_are_all_right() -> None:
    path = SHARED_EVAL / "dev-cases.jsonl"
    if not path.exists():
        pytest.skip("shared/eval/dev-cases.jsonl not present")
    report = evaluation.run(evaluation.load_cases(path))
    assert [m.to_json() for m in report.mismatches] == []
    figures = report.figures()
    assert figures == {"false_commit_rate": 0.0, "auto_commit_recall": 1.0,
                       "decision_accuracy": 1.0, "duplicate_effects": 0,
                       "revocation_residue": 0}


def _evaluate(path: str) -> dict[str, Any]:
    """One corpus file through the library, in a worker process (see corpus_runs)."""
    report = evaluation.run(evaluation.load_cases(path))
    return {"false_commits": [m.to_json() for m in report.mismatches if m.got == "COMMIT"],
            "false_commit_rate": report.false_commit_rate,
            "auto_commit_recall": report.auto_commit_recall,
            "duplicate_effects": report.duplicate_effects,
            "revocation_residue": report.revocation_residue}


@pytest.fixture(scope="module")
def corpus_runs() -> Iterator[dict[Path, Future[dict[str, Any]]]]:
    """Every corpus file, evaluated on all cores in corpus order while the tests wait for
    theirs: each file is a few seconds of fresh stores, and some fifty files one after
    another were most of the suite's time."""
    workers = max(1, min(4, os.cpu_count() or 1))
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        yield {path: pool.submit(_evaluate, str(path)) for path in CORPUS}
    finally:
        pool.shutdown(cancel_futures=True)


@pytest.mark.slow
@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_own_corpus_never_commits_falsely(
        path: Path, corpus_runs: dict[Path, Future[dict[str, Any]]]) -> None:
    run = corpus_runs[path].result()
    assert run["false_commits"] == []
    assert run["false_commit_rate"] == 0.0
    assert run["auto_commit_recall"] >= 0.9
    assert run["duplicate_effects"] == 0 and run["revocation_residue"] == 0


def test_corpus_is_large_and_covers_both_languages() -> None:
    cases = [json.loads(line) for p in CORPUS
             for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(cases) >= 300
    assert {c["lang"] for c in cases} == {"en", "zh"}


def test_corpus_passes_its_validator() -> None:
    """check_cases.py (structure, quotes, offsets, conservative expectations, coverage)."""
    done = subprocess.run([sys.executable, str(CASES / "check_cases.py")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def _case(step_expect: str, text: str = "Remember that I use pnpm for packages.") -> dict:
    return {
        "id": "t-1", "category": "explicit_ok", "lang": "en", "now": "2026-10-14T09:00:00Z",
        "messages": [{"messageId": "m1", "tenantId": "t1", "conversationId": "c1",
                      "authorId": "u1", "role": "user", "origin": "user", "text": text,
                      "createdAt": "2026-10-14T08:00:00Z"}],
        "facts": [],
        "steps": [
            {"op": "propose", "expect": step_expect, "proposal": {
                "tenantId": "t1", "subjectId": "u1", "scope": {"kind": "global", "key": "default"},
                "kind": "preference", "normalizedKey": "package_manager", "value": "pnpm",
                "evidence": {"messageId": "m1", "quote": "Remember that I use pnpm"}}},
            {"op": "propose", "expect": "DUPLICATE", "proposal": {
                "tenantId": "t1", "subjectId": "u1", "scope": {"kind": "global", "key": "default"},
                "kind": "preference", "normalizedKey": "package_manager", "value": "pnpm",
                "evidence": {"messageId": "m1", "quote": "Remember that I use pnpm"}}},
            {"op": "recall", "subjectId": "u1",
             "present": [{"kind": "preference", "normalizedKey": "package_manager",
                          "value": "pnpm"}], "absent": []},
            {"op": "teleport"},
        ],
    }


def test_every_case_starts_from_a_fresh_tenant() -> None:
    """Tenant repositories are copied from a template per case: what one case commits is
    not there in the next case of the same tenant, and the second case commits again."""
    first = _case("COMMIT")
    second = _case("COMMIT")
    second["id"] = "t-2"
    second["steps"] = [
        {"op": "recall", "subjectId": "u1", "present": [], "absent": [
            {"kind": "preference", "normalizedKey": "package_manager", "value": "pnpm"}]},
        *second["steps"][:1]]
    first["steps"] = first["steps"][:3]
    report = evaluation.run([first, second, first])
    assert [m.to_json() for m in report.mismatches] == []
    assert report.decision_accuracy == 1.0


def test_runner_scores_and_reports_mismatches() -> None:
    report = evaluation.run([_case("NEEDS_CONFIRMATION")])
    got = [(m.index, m.op, m.got) for m in report.mismatches]
    assert got == [(0, "propose", "COMMIT"), (3, "teleport", None)]
    assert report.false_commit_rate == 1.0
    assert report.decision_accuracy == 0.5
    assert report.auto_commit_recall == 1.0  # no step expects exactly COMMIT


def test_cli_json_has_the_contract_keys(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(_case("COMMIT")) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["eval", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    for key in ("false_commit_rate", "auto_commit_recall", "decision_accuracy",
                "duplicate_effects", "revocation_residue"):
        assert key in out
    assert out["auto_commit_recall"] == 1.0
    strict = CliRunner().invoke(cli, ["eval", str(path), "--strict"])
    assert strict.exit_code == 1  # the unsupported 'teleport' step is a mismatch
    assert "unsupported step" in strict.output


def _surface() -> Any:
    """tests/cases/surface.py, imported by path (tests/cases is data, not a package)."""
    spec = importlib.util.spec_from_file_location("surface", CASES / "surface.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_main_corpus_typed_differently_decides_the_same(lang: str) -> None:
    """The main corpus as a phone types it ("hey, … thx 🙂" with curly apostrophes; 嗯，… in
    traditional characters …，謝啦): every decision must stay what it was."""
    surface = _surface()
    cases = surface.variant_cases(surface.load([CASES / f"{lang}.jsonl"]), lang, "typed")
    assert len(cases) >= 120
    report = evaluation.run(cases)
    assert [m.to_json() for m in report.mismatches] == []
