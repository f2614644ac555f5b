"""The corpus with a realistic change of surface: the same cases, typed differently.

A rule written against one exact surface (a cue anchored at the end of the message, a speaker
label at its very start, a name's capital letter, a hand-kept table of traditional
characters) passes the corpus and fails the user who types "… Not. thx 🙂", "hey, [Lena
14:02] …" or 記住. Each variant here changes the text of every message and, where the quote
still occurs, the quote with it; the expected decisions stay as they are.

    python tests/cases/surface.py en thx              # one variant, figures and mismatches
    python tests/cases/surface.py zh                  # every zh variant

Run it with the project's environment (``.venv/bin/python``): it runs the gate in process
and converts to traditional characters with OpenCC, a dependency of the gate.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import opencc

Edit = Callable[[str], str]

#: Categories whose decision rests on the words; the protocol categories (duplicates,
#: tampered offsets, tenants) do not change with the surface and are left out.
LINGUISTIC = frozenset({
    "explicit_ok", "negation", "quoted_other", "sarcasm", "temporary", "retraction",
    "assistant_guess", "tool_injection", "update_injection", "inferred", "explicit_replace",
})

#: Simplified → traditional by OpenCC (phrase-aware, so 回复 becomes 回覆), the other way round
#: from the gate's character-by-character folding.
_TRAD: Edit = opencc.OpenCC("s2t").convert


def _each_char(table: dict[str, str]) -> Edit:
    return lambda s: "".join(table.get(ch, ch) for ch in s)


_CURLY = _each_char({"'": "\u2019"})
#: Each sentence on a line of its own, as many people type in chat.
_LINES_EN: Edit = functools.partial(re.compile(r"(?<=[.!?]) +(?=[A-Za-z])").sub, "\n")
_LINES_ZH: Edit = functools.partial(re.compile(r"(?<=[。！？])(?=[^。！？])").sub, "\n")
_HALFWIDTH = _each_char({"，": ",", "：": ":", "！": "!", "？": "?"})

#: (language, name) -> (an edit of every text and quote, or None; text typed before and
#: after each of the user's own messages).
VARIANTS: dict[tuple[str, str], tuple[Edit | None, str, str]] = {
    ("en", "thx"): (None, "", " thx"),
    ("en", "emoji"): (None, "", " \U0001f642"),
    ("en", "hey"): (None, "hey, ", ""),
    ("en", "next-line"): (None, "", "\nAnyway, how is your day going?"),
    ("en", "curly"): (_CURLY, "", ""),
    ("en", "lower"): (str.lower, "", ""),
    ("en", "ok-so"): (None, "ok so ", ""),
    ("en", "lines"): (_LINES_EN, "", ""),
    ("en", "typed"): (_CURLY, "hey, ", " thx \U0001f642"),
    ("zh", "thanks"): (None, "", "，谢啦"),
    ("zh", "um"): (None, "嗯，", ""),
    ("zh", "next-line"): (None, "", "\n对了，你今天怎么样？"),
    ("zh", "traditional"): (_TRAD, "", ""),
    ("zh", "halfwidth"): (_HALFWIDTH, "", ""),
    ("zh", "lines"): (_LINES_ZH, "", ""),
    ("zh", "spaces"): (lambda s: s.replace("，", " "), "", ""),
    ("zh", "typed"): (_TRAD, "嗯，", "，謝啦"),
}


def vary(case: dict[str, Any], edit: Edit | None, before: str, after: str
         ) -> dict[str, Any] | None:
    """``case`` typed differently, or None when a quote would no longer occur in its
    message (or the case pins its evidence by offsets, which any edit would move)."""
    case = json.loads(json.dumps(case))
    evidence = [(step.get("proposal") or {}).get("evidence") or {} for step in case["steps"]]
    if any("start" in e for e in evidence):
        return None
    for m in case["messages"]:
        if edit is not None:
            m["text"] = edit(m["text"])
        if m.get("role") == "user" and m.get("origin") == "user":
            m["text"] = before + m["text"] + after
    texts = {m["messageId"]: m["text"] for m in case["messages"]}
    for e in evidence:
        if "quote" in e:
            if edit is not None:
                e["quote"] = edit(e["quote"])
            if e.get("messageId") in texts and e["quote"] not in texts[e["messageId"]]:
                return None
    return case


def variant_cases(cases: Iterable[dict[str, Any]], lang: str, name: str
                  ) -> list[dict[str, Any]]:
    """The ``lang`` cases of the linguistic categories, typed as variant ``name``."""
    edit, before, after = VARIANTS[(lang, name)]
    out = []
    for case in cases:
        if case.get("lang") == lang and case.get("category") in LINGUISTIC:
            varied = vary(case, edit, before, after)
            if varied is not None:
                out.append(varied)
    return out


def load(paths: Iterable[Path]) -> list[dict[str, Any]]:
    return [json.loads(line) for path in paths for line in path.read_text("utf-8").splitlines()
            if line.strip()]


def main(argv: list[str]) -> int:
    from memrepo import evaluation

    lang = argv[0] if argv else "en"
    names = argv[1:] or [n for (lg, n) in VARIANTS if lg == lang]
    cases = load(sorted(Path(__file__).resolve().parent.glob(f"*{lang}.jsonl")))
    status = 0
    for name in names:
        varied = variant_cases(cases, lang, name)
        report = evaluation.run(varied)
        wrong = [m for m in report.mismatches if m.op == "propose"]
        print(f"{lang}-{name}: {len(varied)} cases, false_commit_rate "
              f"{report.false_commit_rate:.3f}, auto_commit_recall "
              f"{report.auto_commit_recall:.3f}, {len(wrong)} mismatches", flush=True)
        for m in wrong:
            print(f"  {m.case_id} step {m.index}: expected {m.expect}, got {m.got}")
        status = status or (1 if wrong else 0)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
