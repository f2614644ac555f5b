"""Special-category data under ordinary keys: which values park, which do not."""

from __future__ import annotations

from typing import Any

import pytest

from memrepo.sensitive import sensitive_categories

HITS: list[tuple[Any, str]] = [
    ("get to chemo on Thursday", "health"),
    ("整理我的乳腺结节复查报告", "health"),
    ("book the MRI for next week", "health"),
    ("pick up the biopsy results", "health"),
    ("下午去医院挂号看偏头痛", "health"),
    ("sort out my IVF paperwork", "health"),
    ("写完甲状腺彩超的报销单", "health"),
    ("Bible study on Wednesdays", "religion"),
    ("周日去教堂做礼拜", "religion"),
    ("canvass for the Democrat primary", "politics"),
    ("plan my coming out to my parents", "sexual_orientation"),
    ({"task": "refill my medication", "when": "Friday"}, "health"),
    (["ship the release", "ring the oncologist"], "health"),
]

MISSES: list[Any] = [
    "ship the Q4 audit export",
    "primitive obsession refactor",       # "mri" only as a word
    "migrate the ocdata bucket",          # "ocd" only as a word
    "修复登录页的样式",
    "review the blood-orange theme",
    "整理周报",
    {"start": "22:00", "end": "07:00"},
    42,
]


@pytest.mark.parametrize(("value", "category"), HITS)
def test_special_category_words_are_found(value: Any, category: str) -> None:
    assert category in sensitive_categories(value)


@pytest.mark.parametrize("value", MISSES)
def test_ordinary_values_are_not_sensitive(value: Any) -> None:
    assert sensitive_categories(value) == ()


def test_categories_come_in_a_stable_order() -> None:
    value = "chemo after church"
    assert sensitive_categories(value) == ("health", "religion")
    assert sensitive_categories(value) == sensitive_categories(value)
