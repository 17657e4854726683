"""Numbered display equations on hand-made page scans.

The geometry is taken from real pages (key-error-585bcfc6...pdf, pages 9 and 10: a two-column
page in 10pt type whose fonts report tight boxes), so each case is the arrangement it names
and nothing more. PDFs built with PyMuPDF's base fonts report boxes a third taller than
the type, which hides the cases where the rows of an equation sit beyond one line's reach
of its number; ``test_objects.py`` runs the same forms end to end on such PDFs.
"""

from __future__ import annotations

import pytest

from littrace.corpus import equations as equations_module
from littrace.corpus.document import BBox
from littrace.corpus.equations import find_equations
from littrace.corpus.pagescan import PageScan, ScanLine, math_chars
from tests.corpus.examples import run_source_examples

LEFT, RIGHT = 37.6, 288.7  # the column
WORDS = "the reference current can be expressed with the law for the gain of each of the"


Row = tuple[BBox, str]
Glued = tuple[BBox, str, BBox, str]
"""An equation's last row and its number, which PyMuPDF put in one line (two spans a gap
apart): the row's box and text, the number's box and text."""


def fragment(index: int, bbox: BBox, text: str) -> ScanLine:
    return ScanLine(
        index=index,
        block=index,
        first_in_block=True,
        bbox=bbox,
        text=text,
        size=10.0,
        font="NimbusRomNo9L-Regu",
        bold=False,
        label_bold=False,
        tail_font="NimbusRomNo9L-Regu",
        tail_bold=False,
        math=math_chars(text),
        style_break=True,
        pieces=((bbox[0], bbox[2], text),),
    )


def glued(index: int, row: Glued) -> ScanLine:
    box, text, number_box, number = row
    line = fragment(index, (box[0], box[1], number_box[2], box[3]), f"{text} {number}")
    line.pieces = ((box[0], box[2], text), (number_box[0], number_box[2], number))
    return line


def page_with(
    rows: list[Row | Glued], top: float, bottom: float, prose_rows: tuple[int, ...] = ()
) -> tuple[PageScan, set[int]]:
    """Two prose lines above ``top`` and two below ``bottom``, ``rows`` between them (the
    ``prose_rows`` among them prose too); returns the scan and its prose fragments."""
    lines = [
        fragment(n, (LEFT, y, RIGHT, y + 9), WORDS) for n, y in enumerate((top - 24, top - 12))
    ]
    prose = {0, 1} | {2 + n for n in prose_rows}
    for row in rows:
        index = len(lines)
        lines.append(glued(index, row) if len(row) == 4 else fragment(index, row[0], row[1]))
    for y in (bottom + 3, bottom + 15):
        prose.add(len(lines))
        lines.append(fragment(len(lines), (LEFT, y, RIGHT, y + 9), WORDS))
    return PageScan(10, 595.0, 842.0, lines), prose


@pytest.mark.parametrize(
    ("label", "number"),
    [
        ("(3)", "3"),
        ("(3.2)", "3.2"),
        ("(A.1)", "A.1"),
        ("(B.12)", "B.12"),
        ("(S3)", "S3"),
        ("(3a)", "3a"),
    ],
)
def test_printed_number_forms(label: str, number: str) -> None:
    rows: list[Row | Glued] = [
        ((113.0, 508.4, 212.8, 522.2), "VGS,1 = VGS,2 + VDS,9"),
        ((263.8, 509.9, RIGHT, 520.6), label),
    ]
    scan, prose = page_with(rows, 490, 530)

    (equation,) = find_equations(scan, prose, set())
    assert (equation.number, equation.printed_id) == (number, label)
    assert equation.text == "VGS,1 = VGS,2 + VDS,9"


def test_a_number_glued_to_the_equations_last_fragment() -> None:
    # PyMuPDF put "(7)" in one line with the end of a square-root equation (page 9, B.2).
    rows: list[Row | Glued] = [
        ((65.3, 540.0, 87.5, 551.6), "2ID,1"),
        ((60.3, 546.1, 121.6, 568.1), "βn,1(σ) + Vth"),
        ((114.4, 546.8, 135.8, 561.3), "n,1 ="),
        ((158.0, 540.0, 180.2, 551.6), "2ID,2"),
        ((207.1, 546.8, 254.5, 561.3), "n,2 + VDS,9", (263.8, 548.3, RIGHT, 559.0), "(7)"),
    ]
    scan, prose = page_with(rows, 530, 570)

    (equation,) = find_equations(scan, prose, set())
    assert equation.number == "7"
    assert equation.number_line.index == 6 and equation.number_line.bbox[0] == 263.8
    assert "(7)" not in equation.text and "VDS,9" in equation.text and "2ID,1" in equation.text


def test_a_number_on_a_line_of_its_own_under_the_equation() -> None:
    # A wide fraction pushed "(14)" under its last row (page 10, B.14): the row's scripts
    # end 7pt above the number, further than a line from its centre.
    rows: list[Row | Glued] = [
        ((64.6, 246.9, 116.3, 258.8), "= 2(Vov,9)²β0"),
        ((136.5, 263.4, 163.8, 271.2), "e−(π3−π4)σ"),
        ((183.7, 271.9, 209.1, 280.4), "K21e−π2σ"),
        ((230.7, 270.7, 256.1, 279.3), "K91e−π9σ"),
        ((262.9, 287.5, RIGHT, 296.4), "(14)"),
    ]
    scan, prose = page_with(rows, 235, 300)

    (equation,) = find_equations(scan, prose, set())
    assert equation.number == "14"
    assert equation.text.startswith("= 2(Vov,9)²β0") and "K91e−π9σ" in equation.text
    assert equation.bbox[1] == pytest.approx(246.9) and equation.bbox[3] == pytest.approx(296.4)


@pytest.mark.parametrize("number_row", [2, 4])
def test_every_row_of_a_multi_row_equation(number_row: int) -> None:
    # Five aligned rows 14pt apart; the number is on the middle or the last one.
    rows: list[Row | Glued] = [
        ((64.6, 100 + 14 * n, 230.0, 110 + 14 * n), f"= a{n} + b{n}") for n in range(5)
    ]
    y = 100 + 14 * number_row
    rows.append(((270.0, y + 0.5, RIGHT, y + 9.5), "(5)"))
    scan, prose = page_with(rows, 90, 166)

    (equation,) = find_equations(scan, prose, set())
    assert equation.text == " ".join(f"= a{n} + b{n}" for n in range(5))


def test_rows_between_two_numbers_go_to_the_nearer_one() -> None:
    rows: list[Row | Glued] = [
        ((64.6, 100, 230.0, 110), "= a + b"),
        ((270.0, 100.5, RIGHT, 109.5), "(B.10)"),
        ((64.6, 112, 230.0, 122), "= c"),
        ((64.6, 128, 230.0, 138), "= d + e"),
        ((270.0, 128.5, RIGHT, 137.5), "(B.11)"),
    ]
    scan, prose = page_with(rows, 90, 140)

    first, second = find_equations(scan, prose, set())
    assert (first.number, first.text) == ("B.10", "= a + b = c")
    assert (second.number, second.text) == ("B.11", "= d + e")


def test_numbers_that_are_not_equation_numbers() -> None:
    rows: list[Row | Glued] = [
        # A paragraph line that ends in a reference to an equation.
        ((LEFT, 100, 262.0, 109), "the current is then given by relation"),
        ((263.8, 100, RIGHT, 109), "(A.2)"),
        # A year, and a number with nothing but words beside it.
        ((150.0, 130, 230.0, 139), "x = y + z"),
        ((262.0, 130, RIGHT, 139), "(2019)"),
        ((150.0, 160, 230.0, 169), "see the appendix"),
        ((270.0, 160, RIGHT, 169), "(B.3)"),
    ]
    scan, prose = page_with(rows, 90, 175, prose_rows=(0,))

    assert find_equations(scan, prose, set()) == []


def test_a_list_marker_ending_a_prose_line_stays_prose() -> None:
    marker = ((LEFT, 100, 250.0, 109), "in an end-to-end fashion.", (280.0, 100, RIGHT, 109), "(2)")
    scan, prose = page_with([marker], 90, 110, prose_rows=(0,))

    assert find_equations(scan, prose, set()) == []


def test_doctests() -> None:
    result = run_source_examples(equations_module)
    assert result.failed == 0 and result.attempted > 0
