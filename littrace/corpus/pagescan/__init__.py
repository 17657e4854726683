"""A light per-page scan shared by the object detectors: styled text fragments and graphics.

A page's ``get_text("dict")`` is read once into :class:`ScanLine` fragments: one per PyMuPDF
line, split again where a wide horizontal gap separates its spans (table cells, an equation
and its number), with the dominant font, size and boldness, super/subscripts rewritten so
that ``88.85`` followed by a footnote mark ``7`` does not become ``88.857``, and a count of
math characters. Vector paths come with the same dict (``TEXT_COLLECT_VECTORS`` costs
nothing extra); image boxes are read from the page's drawing log (``page.get_bboxlog()``) only
for pages that need them and list images at all.

Example:
    >>> import pymupdf
    >>> doc = pymupdf.open()
    >>> page = doc.new_page()
    >>> _ = page.insert_text((72, 72), "Hello world", fontsize=10)
    >>> scan = scan_page(page, page.get_text("dict", flags=DICT_FLAGS))
    >>> [line.text for line in scan.lines]
    ['Hello world']
"""

from littrace.corpus.pagescan.extract import DICT_FLAGS, extract_dict, unrotated_size
from littrace.corpus.pagescan.records import DocStyle, PageScan, ScanLine, doc_style, row_text, rows
from littrace.corpus.pagescan.scan import fragment_texts, has_candidates, scan_page
from littrace.corpus.pagescan.text import EQUATION_NUMBER, NUMBER_START, math_chars, word_count

__all__ = [
    "DICT_FLAGS",
    "EQUATION_NUMBER",
    "NUMBER_START",
    "DocStyle",
    "PageScan",
    "ScanLine",
    "doc_style",
    "extract_dict",
    "fragment_texts",
    "has_candidates",
    "math_chars",
    "row_text",
    "rows",
    "scan_page",
    "unrotated_size",
    "word_count",
]
