"""Special-category and other private data under ordinary keys: which values park, which do
not."""

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
    ("refill the sertraline prescription", "health"),
    ("book the dentist before the trip", "health"),
    ("我对花生过敏，订餐时注意", "health"),
    ("下周去做产检", "health"),
    ("sort out the Sabbath rota at the synagogue", "religion"),
    ("周末陪我妈去寺庙上香", "religion"),
    ("volunteer for the Labour Party campaign", "politics"),
    ("给民主党的竞选捐款", "politics"),
    ("find an LGBTQ-friendly therapist", "sexual_orientation"),
    ("填表：民族是回族", "ethnicity"),
    ("low-FODMAP for my IBS", "health"),
    ("Senior Data Analyst at $118k base", "financial"),
    ("paying down the $31,400 I owe on three cards", "financial"),
    ("还清信用卡欠的 4 万块", "financial"),
    ("Registered Nurse and UNISON branch rep", "trade_union"),
    ("质检员，兼厂里工会小组长", "trade_union"),
    ("no state ID, I'm undocumented", "immigration"),
    ("偏左派一点，我是社民党的铁杆支持者", "politics"),
]

MISSES: list[Any] = [
    "ship the Q4 audit export",
    "primitive obsession refactor",       # "mri" only as a word
    "migrate the ocdata bucket",          # "ocd" only as a word
    "修复登录页的样式",
    "review the blood-orange theme",
    "整理周报",
    "下礼拜三之前交周报",                  # 礼拜 is also just "week"
    "整理上礼拜的会议纪要",
    "finish the hospital booking system migration",
    "build the allergy filter for the recipe app",
    "给医院客户做体检预约系统",
    "fix the mass import script",
    "pray the deploy works",
    "pay the $40 electricity bill",
    "price the $40k hardware order",
    "unite the two config files",
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
