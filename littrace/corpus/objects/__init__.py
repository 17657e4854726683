"""Tables, figures, numbered display equations and algorithms of a PDF, with printed ids.

:func:`find_objects` returns one :class:`~littrace.corpus.document.PaperObject` per printed id,
in page order; :func:`object_regions` gives the text-layout stage the boxes to keep out of
body paragraphs. The steps:

1. Each page's ``get_text("dict", flags=DICT_FLAGS)`` is read once (pass the dicts in if the
   layout stage has them). Only pages with a line that starts like a caption label or ends
   like an equation number are scanned into styled fragments
   (:mod:`littrace.corpus.pagescan`); running heads and page numbers are set aside.
2. Captions are lines that start with a label ("Table 3:", "Fig. 2.", "TABLE II",
   "Algorithm 1 Name") in the caption's own position and font (:mod:`littrace.corpus.captions`).
3. Each caption's body is found by walking away from it, up and down, inside its column (or
   the full text width for a full-width caption): fragments and graphics are taken while they
   follow each other closely, stopping at prose, a heading (one word after a section number
   is enough), another caption or an equation. A walk between booktabs rules or inside a
   large graphic does not stop at prose-like cell text; an algorithm box ends at the rule
   under its steps and a ruled table at its last rule, whatever follows them closely. The
   side is the one with content; where both have some, the side the paper uses for that
   kind of object elsewhere. A caption with nothing on its page looks at the top of the next
   page (a table whose caption ends a page) or the bottom of the previous one (a full-page
   figure whose caption opens the next page); there, a body across a two-column page must
   reach over the gutter. Without a body, the caption's box stands in. Images are read only
   for figure pages; vector paths come with the dict.
4. Table cells come from fragment positions, or from ``page.find_tables()`` geometry for a
   grid ruled in both directions (:mod:`littrace.corpus.tables`).
5. Numbered equations are found by :mod:`littrace.corpus.equations`, outside the bodies.

When the same id is captioned twice (a continued table, an appendix figure captioned like a
main-text one), the caption with the stronger label form wins ("Table 4:" over a paragraph
opening "Table 4. On average"), and among equals the first. Equations keep the first of a
repeated number.

Example:
    >>> import pymupdf
    >>> doc = pymupdf.open()
    >>> page = doc.new_page()
    >>> _ = page.insert_text((250, 200), "E = mc2", fontsize=10)
    >>> _ = page.insert_text((520, 200), "(1)", fontsize=10)
    >>> [(o.kind, o.object_id, o.page, o.text) for o in find_objects(doc, "p1")]
    [('equation', '(1)', 1, 'E = mc2')]
"""

from littrace.corpus.objects.find import find_objects, object_regions

__all__ = ["find_objects", "object_regions"]
