#!/usr/bin/env python3
"""Validate the write-gate evaluation corpus (python3 stdlib only).

Usage:
    python3 tests/cases/check_cases.py                 # every *.jsonl next to this file
    python3 tests/cases/check_cases.py FILE [FILE...]  # any files in the same format
    python3 tests/cases/check_cases.py --no-coverage /work/shared/eval/dev-cases.jsonl

Coverage minimums depend on the file: the main corpus (`en.jsonl`, `zh.jsonl`) must cover
every category; a holdout file (`holdout-<lang>.jsonl`, `holdout2-<lang>.jsonl`, …, written
before its cases were run against the gate) need not, but must hold enough explicit_ok cases
to measure recall and some cases of every linguistic category.

Checks the structure defined in the eval FORMAT.md (case fields, messages, facts, steps,
decision names), that every `quote` occurs in its message, that every explicit
start/end/sha256 is consistent (and, in `tampered_evidence`, that it is *not*), that refs
point to earlier propose steps, that referenced messages exist, that tenants agree, that
DUPLICATE / PROTOCOL_CONFLICT expectations really replay an earlier identity, and a set of
"conservative corpus" rules: a step may only allow COMMIT when a careful gate could commit
it (user-authored evidence about the subject, same tenant, auto-tier key, value literally in
the evidence span, confidence >= 0.8, not expired). Prints per-category / per-language
counts and exits non-zero on any problem.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

CATEGORIES = [
    "explicit_ok", "explicit_replace", "confirm_tier", "inferred", "negation",
    "quoted_other", "sarcasm", "temporary", "retraction", "same_name", "assistant_guess",
    "tool_injection", "update_injection", "duplicate_delivery", "same_id_diff_payload",
    "tampered_evidence", "missing_evidence", "cross_tenant", "secret", "sensitive",
    "unknown_key", "low_confidence", "self_reported_explicit", "frozen", "expired",
    "approval_binding", "revocation",
]
# Linguistic categories get a higher per-language minimum.
LINGUISTIC = {
    "explicit_ok", "negation", "quoted_other", "sarcasm", "temporary", "retraction",
    "assistant_guess", "tool_injection", "update_injection", "inferred",
}
MIN_PER_CAT = 5
MIN_LINGUISTIC = 10
# Holdout files: recall needs explicit_ok cases; each linguistic category needs a few.
HOLDOUT_MIN_EXPLICIT = 15
HOLDOUT_MIN_LINGUISTIC = 3
HOLDOUT_MIN_CASES = 60
# Categories whose cases must contain at least one propose step that forbids COMMIT.
NEVER_COMMIT = {
    "negation", "quoted_other", "sarcasm", "temporary", "retraction", "same_name",
    "assistant_guess", "tool_injection", "update_injection", "tampered_evidence",
    "missing_evidence", "cross_tenant", "secret", "sensitive", "unknown_key",
    "low_confidence", "self_reported_explicit", "frozen", "expired", "inferred",
    "confirm_tier",
}

DECISIONS = {"COMMIT", "NEEDS_CONFIRMATION", "CONFIRM_REPLACE", "CONFLICT", "REJECT",
             "DUPLICATE", "PROTOCOL_CONFLICT"}
ROLES = {"user", "assistant", "tool", "system"}
ORIGINS = {"user", "assistant", "tool", "web", "admin"}
OPS = {"propose", "confirm", "reject", "revoke", "recall"}

AUTO, CONFIRM, DENY = "auto", "confirm", "deny"
REGISTRY = {
    ("preference", k): AUTO for k in (
        "package_manager", "editor", "reply_language", "reply_style", "drink", "diet",
        "units", "indent_style", "timezone", "quiet_hours")
}
REGISTRY[("preference", "notifications")] = CONFIRM
REGISTRY.update({("profile", k): AUTO for k in ("display_name", "pronouns", "job_title")})
REGISTRY.update({("profile", k): CONFIRM for k in (
    "home_city", "employer", "birthday", "medication_schedule")})
REGISTRY.update({("profile", k): DENY for k in (
    "health_condition", "religion", "political_view", "sexual_orientation", "ethnicity")})
REGISTRY.update({("decision", k): AUTO for k in (
    "database", "deploy_target", "api_style", "test_framework")})
REGISTRY.update({("task_fact", k): AUTO for k in ("current_task", "deadline", "branch")})
ENUMS = {
    "units": {"metric", "imperial"},
    "indent_style": {"tabs", "spaces"},
    "notifications": {"on", "off", "digest"},
}

RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$")
HEX64 = re.compile(r"^[0-9a-f]{64}$")
HHMM = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ID_RE = {"en": re.compile(r"^ce-[a-z]+-\d{3}$"), "zh": re.compile(r"^cz-[a-z]+-\d{3}$")}
HOLDOUT_ID_RE = {"en": re.compile(r"^h\d*e-[a-z]+-\d{3}$"),
                 "zh": re.compile(r"^h\d*z-[a-z]+-\d{3}$")}


def file_kind(path: Path) -> tuple[str | None, str | None]:
    """(language, "main" | "holdout") from a file name, or (None, None) for other files."""
    if path.stem in ("en", "zh"):
        return path.stem, "main"
    m = re.fullmatch(r"holdout\d*-(en|zh)", path.stem)
    if m:
        return m.group(1), "holdout"
    return None, None


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_time(s):
    if not isinstance(s, str) or not RFC3339.match(s):
        return None
    return datetime.strptime(s[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC)


def as_list(expect):
    return expect if isinstance(expect, list) else [expect]


class Checker:
    def __init__(self) -> None:
        self.errors: list[str] = []
        self.ids: dict[str, str] = {}
        self.message_ids: dict[str, str] = {}
        self.counts: Counter = Counter()
        # (file kind, category, lang) -> cases, for the per-kind coverage rules
        self.kind_counts: Counter = Counter()
        self.steps = 0
        self.propose = 0
        self.commit_only = 0

    def err(self, where: str, msg: str) -> None:
        self.errors.append(f"{where}: {msg}")

    # ------------------------------------------------------------------ files
    def check_file(self, path: Path) -> None:
        want_lang, kind = file_kind(path)
        try:
            lines = path.read_text(encoding="utf-8").split("\n")
        except OSError as e:
            self.err(str(path), f"cannot read: {e}")
            return
        if lines and lines[-1] == "":
            lines.pop()
        for n, line in enumerate(lines, 1):
            where = f"{path.name}:{n}"
            if not line.strip():
                self.err(where, "blank line")
                continue
            try:
                case = json.loads(line)
            except json.JSONDecodeError as e:
                self.err(where, f"invalid JSON: {e}")
                continue
            if not isinstance(case, dict):
                self.err(where, "line is not a JSON object")
                continue
            self.check_case(case, f"{where} [{case.get('id')}]", want_lang, kind)

    # ------------------------------------------------------------------ cases
    def check_case(self, case: dict, where: str, want_lang, kind=None) -> None:
        for field, typ in (("id", str), ("category", str), ("lang", str), ("note", str),
                           ("now", str), ("messages", list), ("facts", list),
                           ("steps", list)):
            if not isinstance(case.get(field), typ):
                self.err(where, f"missing or mistyped field {field!r}")
                return
        extra = set(case) - {"id", "category", "lang", "note", "now", "messages", "facts",
                             "steps"}
        if extra:
            self.err(where, f"unknown case fields {sorted(extra)}")
        cid, cat, lang = case["id"], case["category"], case["lang"]
        if cid in self.ids:
            self.err(where, f"duplicate id (first at {self.ids[cid]})")
        self.ids[cid] = where
        if cat not in CATEGORIES:
            self.err(where, f"unknown category {cat!r}")
        if lang not in ("zh", "en"):
            self.err(where, f"lang must be zh or en, got {lang!r}")
        if want_lang and lang != want_lang:
            self.err(where, f"lang {lang!r} in {want_lang}.jsonl")
        id_re = (HOLDOUT_ID_RE if kind == "holdout" else ID_RE).get(want_lang or "")
        if id_re is not None and not id_re.match(cid):
            self.err(where, f"id should look like {id_re.pattern}")
        if not case["note"].strip():
            self.err(where, "empty note")
        now = parse_time(case["now"])
        if now is None:
            self.err(where, f"now is not RFC 3339 UTC: {case['now']!r}")
        self.counts[(cat, lang)] += 1
        if kind is not None:
            self.kind_counts[(kind, cat, lang)] += 1

        msgs = self.check_messages(case, where)
        case_tenants = {m["tenantId"] for m in msgs.values()}
        prop_tenants = {s["proposal"].get("tenantId") for s in case["steps"]
                        if isinstance(s, dict) and s.get("op") == "propose"
                        and isinstance(s.get("proposal"), dict)}
        for i, f in enumerate(case["facts"]):
            self.check_fact(f, f"{where} facts[{i}]", prop_tenants or case_tenants)
        self.check_steps(case, where, msgs, now)

    def check_messages(self, case: dict, where: str) -> dict:
        msgs: dict[str, dict] = {}
        if not case["messages"]:
            self.err(where, "no messages")
        last = None
        for i, m in enumerate(case["messages"]):
            w = f"{where} messages[{i}]"
            if not isinstance(m, dict):
                self.err(w, "not an object")
                continue
            for field in ("messageId", "tenantId", "conversationId", "role", "origin", "text",
                          "createdAt"):
                if not isinstance(m.get(field), str) or not m.get(field):
                    self.err(w, f"missing or mistyped {field!r}")
            if "authorId" not in m or not (m["authorId"] is None or isinstance(m["authorId"],
                                                                               str)):
                self.err(w, "authorId must be a string or null")
            extra = set(m) - {"messageId", "tenantId", "conversationId", "authorId", "role",
                              "origin", "text", "createdAt"}
            if extra:
                self.err(w, f"unknown message fields {sorted(extra)}")
            if m.get("role") not in ROLES:
                self.err(w, f"bad role {m.get('role')!r}")
            if m.get("origin") not in ORIGINS:
                self.err(w, f"bad origin {m.get('origin')!r}")
            if m.get("role") == "assistant" and m.get("authorId") is not None:
                self.err(w, "assistant messages should have authorId null")
            t = parse_time(m.get("createdAt"))
            if t is None:
                self.err(w, "createdAt is not RFC 3339 UTC")
            elif last is not None and t < last:
                self.err(w, "messages are not in chronological order")
            last = t or last
            mid = m.get("messageId")
            if isinstance(mid, str):
                if mid in msgs or mid in self.message_ids:
                    self.err(w, f"duplicate messageId {mid!r}")
                self.message_ids[mid] = where
                msgs[mid] = m
        return msgs

    def check_scope(self, scope, w: str) -> None:
        if not (isinstance(scope, dict) and set(scope) == {"kind", "key"}
                and all(isinstance(v, str) and v for v in scope.values())):
            self.err(w, f"scope must be {{kind, key}}, got {scope!r}")

    def check_fact(self, f, w: str, tenants: set) -> None:
        if not isinstance(f, dict):
            self.err(w, "not an object")
            return
        for field in ("tenantId", "subjectId", "kind", "normalizedKey"):
            if not isinstance(f.get(field), str):
                self.err(w, f"missing or mistyped {field!r}")
        if "value" not in f:
            self.err(w, "missing value")
        self.check_scope(f.get("scope"), w)
        if (f.get("kind"), f.get("normalizedKey")) not in REGISTRY:
            self.err(w, "fact uses an unregistered kind/key")
        if "frozen" in f and f["frozen"] is not True:
            self.err(w, "frozen must be true when present")
        if tenants and f.get("tenantId") not in tenants:
            self.err(w, f"fact tenant {f.get('tenantId')!r} not used by the case")

    # ------------------------------------------------------------------ steps
    def resolve_span(self, ev, msgs):
        """(message, start, end, digest, consistent) for an evidence object, or None."""
        m = msgs.get(ev.get("messageId"))
        if m is None:
            return None
        text = m["text"]
        if "quote" in ev and "start" not in ev:
            q = ev["quote"]
            s = text.find(q)
            if s < 0:
                return m, None, None, None, False
            return m, s, s + len(q), sha(q), True
        s, e, d = ev.get("start"), ev.get("end"), ev.get("sha256")
        ok = (isinstance(s, int) and isinstance(e, int) and isinstance(d, str)
              and 0 <= s <= e <= len(text) and HEX64.match(d) is not None
              and sha(text[s:e]) == d)
        return m, s, e, d, ok

    def check_steps(self, case: dict, where: str, msgs: dict, now) -> None:
        cat = case["category"]
        steps = case["steps"]
        if not steps:
            self.err(where, "no steps")
        seen: dict[tuple, tuple] = {}
        allows_non_commit = False
        tenant_mismatch = False
        tamper_seen = False
        for i, st in enumerate(steps):
            w = f"{where} steps[{i}]"
            if not isinstance(st, dict) or st.get("op") not in OPS:
                self.err(w, f"bad op {st.get('op') if isinstance(st, dict) else st!r}")
                continue
            op = st["op"]
            self.steps += 1
            if op in ("propose", "confirm"):
                exp = as_list(st.get("expect"))
                if not exp or any(x not in DECISIONS for x in exp):
                    self.err(w, f"expect must be decision name(s), got {st.get('expect')!r}")
                if isinstance(st.get("expect"), list) and len(set(exp)) != len(exp):
                    self.err(w, "expect list has repeats")
            elif "expect" in st:
                self.err(w, f"{op} steps take no expect")
            if op == "propose":
                self.propose += 1
                res = self.check_propose(st, w, cat, msgs, now, seen)
                if res is not None:
                    mism, tampered = res
                    tenant_mismatch |= mism
                    tamper_seen |= tampered
                if "COMMIT" not in as_list(st.get("expect")):
                    allows_non_commit = True
            elif op in ("confirm", "reject"):
                ref = st.get("ref")
                if not (isinstance(ref, int) and 0 <= ref < i
                        and isinstance(steps[ref], dict) and steps[ref].get("op") == "propose"):
                    self.err(w, f"ref {ref!r} does not point to an earlier propose step")
                if op == "confirm" and "tamper" in st and st["tamper"] is not True:
                    self.err(w, "tamper must be true when present")
                if op == "reject" and "tamper" in st:
                    self.err(w, "reject takes no tamper")
            elif op == "revoke":
                if "messageId" in st:
                    if st["messageId"] not in msgs:
                        self.err(w, f"revoke names unknown message {st['messageId']!r}")
                elif isinstance(st.get("fact"), dict):
                    f = st["fact"]
                    if not (isinstance(f.get("kind"), str)
                            and isinstance(f.get("normalizedKey"), str)):
                        self.err(w, "revoke fact needs kind and normalizedKey")
                    self.check_scope(f.get("scope"), w)
                else:
                    self.err(w, "revoke needs messageId or fact")
            elif op == "recall":
                self.check_recall(st, w)
        if cat in NEVER_COMMIT and not allows_non_commit:
            self.err(where, f"category {cat} needs at least one propose step without COMMIT")
        if cat == "cross_tenant" and not tenant_mismatch:
            self.err(where, "cross_tenant case without a tenant mismatch")
        if cat == "tampered_evidence" and not tamper_seen:
            self.err(where, "tampered_evidence case without tampered evidence")

    def check_recall(self, st: dict, w: str) -> None:
        if not isinstance(st.get("subjectId"), str):
            self.err(w, "recall needs subjectId")
        pres, absn = st.get("present"), st.get("absent")
        if not isinstance(pres, list) or not isinstance(absn, list):
            self.err(w, "recall needs present and absent lists")
            return
        if not pres and not absn:
            self.err(w, "recall checks nothing")
        for p in pres:
            if not (isinstance(p, dict) and set(p) == {"kind", "normalizedKey", "value"}):
                self.err(w, f"bad present entry {p!r}")
        for a in absn:
            if not (isinstance(a, dict) and set(a) == {"kind", "normalizedKey"}):
                self.err(w, f"bad absent entry {a!r}")
        keys = [(p.get("kind"), p.get("normalizedKey")) for p in pres if isinstance(p, dict)]
        keys_a = [(a.get("kind"), a.get("normalizedKey")) for a in absn if isinstance(a, dict)]
        if set(keys) & set(keys_a):
            self.err(w, "same key both present and absent")

    def check_propose(self, st, w, cat, msgs, now, seen):
        p = st.get("proposal")
        if not isinstance(p, dict):
            self.err(w, "propose needs a proposal object")
            return None
        for field in ("tenantId", "subjectId", "kind", "normalizedKey"):
            if not isinstance(p.get(field), str) or not p.get(field):
                self.err(w, f"proposal missing {field!r}")
        if "value" not in p:
            self.err(w, "proposal missing value")
        self.check_scope(p.get("scope"), w)
        exp = as_list(st.get("expect"))
        conf = p.get("confidence", 0.9)
        if isinstance(conf, bool) or not isinstance(conf, (int, float)):
            self.err(w, "confidence must be a number")
            conf = 0.9
        expires = p.get("expiresAt")
        exp_t = None
        if expires is not None:
            exp_t = parse_time(expires)
            if exp_t is None:
                self.err(w, "expiresAt must be RFC 3339 UTC or null")
        key = (p.get("kind"), p.get("normalizedKey"))
        tier = REGISTRY.get(key)
        if tier is None and (set(exp) - {"REJECT", "DUPLICATE", "PROTOCOL_CONFLICT"}):
            self.err(w, f"unregistered key {key} may only expect REJECT")
        if tier == DENY and set(exp) - {"REJECT", "DUPLICATE"}:
            self.err(w, f"deny-tier key {key} may only expect REJECT")
        if tier == CONFIRM and "COMMIT" in exp:
            self.err(w, f"confirm-tier key {key} must not expect COMMIT on propose")

        ev = p.get("evidence")
        mismatch, tampered = False, False
        span = None
        if ev is None:
            if cat != "missing_evidence":
                self.err(w, "proposal without evidence outside missing_evidence")
        elif not isinstance(ev, dict) or not isinstance(ev.get("messageId"), str):
            self.err(w, "evidence must be an object with messageId")
        else:
            if "quote" in ev and any(k in ev for k in ("start", "end", "sha256")):
                self.err(w, "evidence mixes quote and explicit offsets")
            if "quote" not in ev and not all(k in ev for k in ("start", "end", "sha256")):
                self.err(w, "evidence needs quote or start/end/sha256")
            span = self.resolve_span(ev, msgs)
            if span is None:
                if cat != "missing_evidence":
                    self.err(w, f"evidence names unknown message {ev['messageId']!r}")
            else:
                m, s, e, _d, ok = span
                if "quote" in ev and not ok:
                    self.err(w, f"quote not found in {ev['messageId']}: {ev['quote']!r}")
                if "quote" in ev and not ev["quote"]:
                    self.err(w, "empty quote")
                if m["tenantId"] != p.get("tenantId"):
                    mismatch = True
                    if cat != "cross_tenant":
                        self.err(w, "proposal tenant differs from the evidence message tenant")
                if "quote" not in ev:
                    value_in = ok and self._value_in(p.get("value"), m["text"][s:e])
                    if not ok or not value_in:
                        tampered = True
                        if cat != "tampered_evidence":
                            self.err(w, "explicit evidence does not verify")
                        if "COMMIT" in exp:
                            self.err(w, "tampered evidence must not allow COMMIT")
                    elif cat == "tampered_evidence" and "DUPLICATE" not in exp:
                        self.err(w, "explicit evidence in tampered_evidence verifies fine")
        if cat == "missing_evidence" and span is not None and ev is not None:
            self.err(w, "missing_evidence proposal points at an existing message")

        if "COMMIT" in exp:
            self.check_commit_allowed(p, w, span, conf, exp_t, now, tier)
        if conf < 0.8 and "COMMIT" in exp:
            self.err(w, "confidence < 0.8 must not allow COMMIT")

        # replay bookkeeping (identity / payload as in FORMAT.md, approximately)
        if span is not None or ev is None:
            s_e = (span[1], span[2]) if span else (None, None)
            ident = (p.get("tenantId"), p.get("subjectId"), json.dumps(p.get("scope"),
                     sort_keys=True), p.get("kind"), p.get("normalizedKey"),
                     ev.get("messageId") if isinstance(ev, dict) else None, s_e,
                     p.get("stableCandidateOrdinal", 0), p.get("extractorVersion", "eval-1"))
            payload = (json.dumps(p.get("value"), sort_keys=True, ensure_ascii=False), conf,
                       expires, span[3] if span else None)
            if "DUPLICATE" in exp and seen.get(ident) != payload:
                self.err(w, "expects DUPLICATE but no earlier identical proposal")
            if "PROTOCOL_CONFLICT" in exp and (ident not in seen or seen[ident] == payload):
                self.err(w, "expects PROTOCOL_CONFLICT but no earlier same-identity proposal "
                            "with a different payload")
            seen.setdefault(ident, payload)
        if exp == ["COMMIT"]:
            self.commit_only += 1
        return mismatch, tampered

    @staticmethod
    def _value_in(value, span_text: str) -> bool:
        if isinstance(value, dict):
            return all(isinstance(v, str) and v in span_text for v in value.values())
        return isinstance(value, str) and value in span_text

    def check_commit_allowed(self, p, w, span, conf, exp_t, now, tier) -> None:
        """A step may allow COMMIT only if a careful gate could commit it."""
        if tier != AUTO:
            self.err(w, "COMMIT allowed for a non-auto key")
        if span is None:
            self.err(w, "COMMIT allowed without resolvable evidence")
            return
        m, s, e, _d, ok = span
        if not ok:
            self.err(w, "COMMIT allowed with unverifiable evidence")
            return
        if m["role"] != "user" or m["origin"] != "user":
            self.err(w, "COMMIT allowed for evidence not written by the user")
        if m["authorId"] != p.get("subjectId"):
            self.err(w, "COMMIT allowed for evidence authored by someone else")
        if m["tenantId"] != p.get("tenantId"):
            self.err(w, "COMMIT allowed across tenants")
        value = p.get("value")
        key = p.get("normalizedKey")
        if not self._value_in(value, m["text"][s:e]):
            self.err(w, f"COMMIT allowed but value {value!r} is not literally in the span")
        if key in ENUMS and value not in ENUMS[key]:
            self.err(w, f"{key} value {value!r} is not one of {sorted(ENUMS[key])}")
        if key == "quiet_hours" and not (isinstance(value, dict) and set(value) == {
                "start", "end"} and all(HHMM.match(str(v)) for v in value.values())):
            self.err(w, "quiet_hours must be {start, end} as HH:MM")
        if key == "deadline" and not (isinstance(value, str) and DATE.match(value)):
            self.err(w, "deadline must be YYYY-MM-DD")
        if key == "timezone" and not (isinstance(value, str) and "/" in value):
            self.err(w, "timezone should be an IANA name")
        if not (0.8 <= conf <= 1):
            self.err(w, "COMMIT allowed with confidence outside [0.8, 1]")
        if exp_t is not None and now is not None and exp_t <= now:
            self.err(w, "COMMIT allowed for an already expired proposal")

    # ------------------------------------------------------------------ report
    def report(self, coverage: bool) -> None:
        langs = sorted({lang for (_c, lang) in self.counts})
        width = max(len(c) for c in CATEGORIES)
        print(f"{'category':<{width}}  " + "  ".join(f"{lang:>4}" for lang in langs)
              + "  total")
        for cat in CATEGORIES:
            row = [self.counts.get((cat, lang), 0) for lang in langs]
            print(f"{cat:<{width}}  " + "  ".join(f"{n:>4}" for n in row) + f"  {sum(row):>5}")
        totals = [sum(n for (_c, lg), n in self.counts.items() if lg == lang) for lang in langs]
        print(f"{'TOTAL':<{width}}  " + "  ".join(f"{n:>4}" for n in totals)
              + f"  {sum(totals):>5}")
        print(f"steps: {self.steps}, propose steps: {self.propose}, "
              f"steps expecting exactly COMMIT: {self.commit_only}")
        if coverage:
            self.check_coverage()

    def check_coverage(self) -> None:
        """Per-file-kind minimums; files of no known kind (dev cases) are only counted."""
        kinds = {k for (k, _c, _l) in self.kind_counts}
        if "main" in kinds:
            for cat in CATEGORIES:
                need = MIN_LINGUISTIC if cat in LINGUISTIC else MIN_PER_CAT
                for lang in ("en", "zh"):
                    n = self.kind_counts.get(("main", cat, lang), 0)
                    if n < need:
                        self.err("coverage", f"{cat}/{lang}: {n} cases, need >= {need}")
        if "holdout" in kinds:
            # Only the languages checked: a new batch is written one language per file.
            for lang in sorted({lg for (k, _c, lg) in self.kind_counts if k == "holdout"}):
                total = sum(n for (k, _c, lg), n in self.kind_counts.items()
                            if k == "holdout" and lg == lang)
                if total < HOLDOUT_MIN_CASES:
                    self.err("coverage", f"holdout/{lang}: {total} cases, "
                                         f"need >= {HOLDOUT_MIN_CASES}")
                for cat in sorted(LINGUISTIC):
                    need = HOLDOUT_MIN_EXPLICIT if cat == "explicit_ok" \
                        else HOLDOUT_MIN_LINGUISTIC
                    n = self.kind_counts.get(("holdout", cat, lang), 0)
                    if n < need:
                        self.err("coverage", f"holdout {cat}/{lang}: {n} cases, need >= {need}")
        if not kinds and not self.counts:
            self.err("coverage", "no cases")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--no-coverage", action="store_true",
                    help="skip per-category/per-language minimum counts")
    args = ap.parse_args(argv)
    here = Path(__file__).resolve().parent
    files = args.files or sorted(here.glob("*.jsonl"))
    chk = Checker()
    for f in files:
        chk.check_file(f)
    chk.report(coverage=not args.no_coverage)
    if chk.errors:
        print(f"\n{len(chk.errors)} problem(s):", file=sys.stderr)
        for e in chk.errors:
            print("  " + e, file=sys.stderr)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
