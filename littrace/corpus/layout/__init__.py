"""Reading-order text layout of a paper PDF: lines, paragraphs, sections and front matter.

:func:`extract_layout` reads every page once with ``page.get_text("dict")`` and turns the
text lines into :class:`~littrace.corpus.document.Layout`:

1. *Lines* (:mod:`.lines`). Spans are joined into lines with their dominant font; rotated
   text (arXiv side stamps, vertical table labels) and text inside ``exclude`` regions
   (tables, figures, equations, algorithms found by the objects module) is dropped. Pieces
   of one printed line that PyMuPDF reports separately ("1" and "Introduction") are joined
   again.
2. *Page furniture* (:mod:`.furniture`). Among the first and last few lines of a page, those
   that recur at the same height on many pages (digits ignored, so "Page 3" matches "Page 4")
   are running headers and footers, and so are page numbers on the first or last row; lines
   sharing their row go too, and whatever sits beyond a page number (the proceedings line
   below an ACL first page's number). A column of consecutive numbers beside the text is a
   review-style line-number margin and goes.
3. *Reading order* (:mod:`.columns`). Each page looks for a vertical gutter near its middle
   that few lines cross. With one, lines crossing the gutter on both sides are full width
   (title, wide captions) and cut the page into bands, each read left column then right
   column; on page 1 everything above the first full column-width line or section heading in
   a column is front matter read top to bottom. A column may be as short as the last two
   lines of a bibliography beside a full one.
4. *Paragraphs* (:mod:`.paragraphs`). Within a column a new block starts after a larger
   vertical gap, at a first line indent (or, in a hanging-indent run such as a bibliography,
   at each unindented line), after a short sentence-final line, at a font change, at a
   bullet, and at captions and headings. Blocks never span columns or pages.
5. *Headings and sections* (:mod:`.headings`). A heading is a short line that starts a block
   and is bold or larger than the body font (numbered "3.2 Results", "A Appendix", "II.
   METHOD", or unnumbered), a numbered line set wholly in italics ("2.1. Piezoresistive
   effect"), or one of the usual section names ("Abstract", "References", ...). Its number
   gives the level.
6. *Front matter* (:mod:`.document`). The title is the largest text in the upper half of
   page 1; the blocks between it and the abstract are authors and affiliations; the abstract
   is what follows an "Abstract" heading (or a run-in "Abstract." / "Abstract—"), else the
   first long paragraph.

Hyphenation at line ends is repaired by :func:`join_lines` (the rule is in
:mod:`.hyphenation`): "retriev-" + "al" -> "retrieval", but "state-of-" + "the-art" keeps
its hyphen. A soft hyphen is always dropped.

Example:
    >>> import pymupdf
    >>> doc = pymupdf.open()
    >>> page = doc.new_page(width=300, height=400)
    >>> _ = page.insert_text((40, 60), "1 Introduction", fontname="hebo", fontsize=12)
    >>> _ = page.insert_text((40, 80), "Dense retriev-", fontsize=10)
    >>> _ = page.insert_text((40, 92), "al works well.", fontsize=10)
    >>> layout = extract_layout(doc)
    >>> layout.sections[0].label, layout.blocks[1].text, layout.blocks[1].section
    ('1 Introduction', 'Dense retrieval works well.', '1 Introduction')
"""

from littrace.corpus.layout.document import extract_layout
from littrace.corpus.layout.headings import SECTION_NAMES
from littrace.corpus.layout.hyphenation import join_lines, vocabulary

__all__ = ["SECTION_NAMES", "extract_layout", "join_lines", "vocabulary"]
