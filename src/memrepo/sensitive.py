"""Special-category data (health, religion, politics, orientation, ethnicity, trade-union
membership) and other private data (immigration status, debts and pay) in a value.

Deny-tier keys keep such profiling out by name; this catches it when an extractor files
it under an ordinary key ("current_task: get to chemo on Thursday"), including values that
stand for it ("diet: low-FODMAP", "diet: halal"). A hit never commits automatically: the
subject is asked. Only the value counts, not the sentence around it: a fact keeps its
value, and the message it came from is stored whatever is decided, so "I'm coeliac — note
that my recipes must be gluten-free" may store the diet while health_condition=coeliac is
refused by its tier. Pure; the term list is data in lexicon/sensitive.json.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import cache
from importlib import resources
from typing import Any

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@cache
def _patterns() -> dict[str, re.Pattern[str]]:
    text = resources.files("memrepo").joinpath("lexicon/sensitive.json").read_text("utf-8")
    data = json.loads(text)
    out = {}
    for category, terms in data.items():
        if category.startswith("_"):
            continue
        parts = []
        for term in terms:
            if term.startswith("re:"):
                parts.append(f"(?:{term[3:]})")
                continue
            norm = re.escape(_norm(term))
            parts.append(norm if _CJK.search(term) else rf"(?<![\w]){norm}(?![\w])")
        out[category] = re.compile("|".join(parts))
    return out


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def sensitive_categories(value: Any) -> tuple[str, ...]:
    """The special categories a value's text touches, in a stable order."""
    text = _norm(" \n ".join(_strings(value)))
    return tuple(cat for cat, pattern in _patterns().items() if pattern.search(text))
