"""Tests for littrace.numbers: numbers read from passages and model-written values alike."""

from __future__ import annotations

import pytest

from littrace.numbers import (
    first_number,
    numbers,
    parse_value,
    same_number,
    same_shown,
    share,
    spread,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("91.40", (91.4, 2)),
        ("91.40 F1", (91.4, 2)),
        # A digit glued to a word is part of a name, not a value.
        ("F1 91.4", (91.4, 1)),
        ("BLEU-4 of 23.5", (4.0, 0)),
        ("−3.2", (-3.2, 1)),
        ("1,234.50", (1234.5, 2)),
        (".85", (0.85, 2)),
        ("-.5", (-0.5, 1)),
        ("45 %", (45.0, 0)),
        ("1e-3", (0.001, 3)),
        ("5 × 10−5", (5e-05, 5)),
        ("~91.4±0.3", (91.4, 1)),
        ("n/a", None),
        ("", None),
    ],
)
def test_first_number_reads_the_first_printed_number(
    text: str, expected: tuple[float, int] | None
) -> None:
    assert first_number(text) == expected


def test_numbers_skip_version_and_name_digits_but_read_leading_dot_decimals() -> None:
    found = numbers("v1.2.3 scores .85 (p < .05), F1 is 91.4%, Table 3 has 1,024 rows")
    assert [(n.value, n.unit) for n in found] == [
        (0.85, ""),
        (0.05, ""),
        (91.4, "%"),
        (3.0, ""),
        (1024.0, ""),
    ]
    assert found[0].text == ".85"
    assert parse_value(".85") == 0.85 and parse_value("0.85 vs .9") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("83.64†", 83.64),
        ("12.5%", 12.5),
        # A value with its spread or change after it.
        ("23.00(0.08)", 23.0),
        ("47.2 ± 0.3", 47.2),
        ("81.5 (+1.2)", 81.5),
        # A count with its share after it; a name with a year in brackets is no value.
        ("21.5M (26.5%)", 21.5),
        ("BERT (2019)", None),
        # A signed change set as a subscript after the value; a year range is not one value.
        ("89.29+46.47", 89.29),
        ("34.92 -6.45", 34.92),
        ("2020-2021", None),
        # A setting, the end of a citation, two values: none is one value.
        ("k = 5", None),
        ("𝛾𝑙= 5%", None),
        ("2021)", None),
        ("1.2 (3.4) 5", None),
    ],
)
def test_parse_value_reads_one_value_with_its_spread_and_refuses_settings(
    text: str, expected: float | None
) -> None:
    assert parse_value(text) == expected


def test_numbers_read_a_power_of_ten_as_one_value_and_same_number_tells_them_apart() -> None:
    # Extraction flattens the superscript of "5 × 10^-5" into "5 × 10−5".
    found = numbers("the learning rate is 5 × 10−5, then 7×10^{-5}; a 3 x 10 grid")
    assert [n.value for n in found] == [5e-05, 7e-05, 3.0, 10.0]
    assert same_number(5e-05, "5 × 10−5") and not same_number(7e-05, "5 × 10−5")
    assert same_number(5e-05, "5e-5")
    # An exponent's sign set apart from its "e" by extraction (a table cell "1e −4"); a
    # sign after a lone letter is no exponent.
    assert parse_value("1e −4") == 1e-04 and parse_value("5E -5") == 5e-05
    assert [n.value for n in numbers("the e -4 item")] == [-4.0]


def test_a_number_shown_more_precisely_than_printed_is_not_the_printed_one() -> None:
    # A cell "0.742" rounds to an option "1" (of "Eq. 1"), and "0.93" to "0.9": neither is it.
    assert not same_shown(0.742, 3, "1")
    assert not same_shown(0.93, 2, "0.9")
    assert same_shown(44.4, 1, "44.40") and same_shown(0.93, 2, "0.930")
    assert same_shown(7.0, 0, "7")


def test_thousands_grouped_with_a_spaced_comma_are_one_number_but_list_items_are_not() -> None:
    # Extraction spaces the comma of ToolLLM's "3,451 high-quality tools".
    assert [n.value for n in numbers("we retain 3, 451 tools (16, 464 APIs)")] == [3451, 16464]
    for listed in ("[31, 104]", "{64, 128}", "(224, 336, and 448)", "(180, 108, 129 days"):
        assert all(n.value < 1000 for n in numbers(listed)), listed
    assert [n.value for n in numbers("0-500, 500-1000")] == [0, 500, 500, 1000]


def test_a_share_is_a_percentage_in_parentheses_after_a_count_not_a_signed_change() -> None:
    assert share("28.9M (35.6%)") == "35.6"
    assert share("42k (0.1%)") == "0.1"
    assert share("27.30 (+1.2)") is None  # a change, not a share
    assert share("(35.6%)") is None  # no count before it
    assert spread("28.9M (35.6%)") is None
