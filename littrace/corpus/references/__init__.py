"""Bibliography entries and the body sentences that cite them.

:func:`parse_references` reads the blocks that :func:`~littrace.corpus.layout.extract_layout`
put under the References / Bibliography heading (over any number of pages, up to the next
heading such as an appendix) and splits them into entries, line by line:

* numbered lists ("[24] ..." or "24. ...") start an entry at each label that continues the
  numbering; other lines continue the current entry when they are indented or open a new
  column, and anything else (a footnote, an author biography) is left out;
* author-year lists start an entry at each line flush with the column's left edge when the
  list uses hanging indents, else at each paragraph and after each gap wider than the one
  between lines of an entry.

Lines in a font size foreign to the list (footnotes, notes such as arXiv's "This figure is
available ...") are left out first.

Each entry's ``label`` is the form the text cites it by: ``"24"``, or ``"Smith et al., 2020"``
/ ``"Smith and Doe, 2020"`` / ``"Smith, 2020"`` built from the parsed author surnames and year
(with its letter, "2019a"). ``first_author`` is a surname, ``title`` the title as printed, and
``arxiv_id`` / ``doi`` are found anywhere in the entry.

:func:`find_citations` splits body, abstract and caption blocks into sentences (not at
"et al.", "e.g.", "Fig.", initials or decimals) and returns those that cite: numeric "[3]",
"[2, 5]", "[2–5]" (ranges expanded), or author-year "(Smith et al., 2020)",
"Smith et al. (2020)", "(Smith and Doe, 2020; Lee, 2019a)". Labels are resolved to
bibliography entries (numbers directly, author-year by first-author surname and year);
``reference_titles`` is parallel to ``labels``, with "" where an entry was not found.

Example:
    >>> from littrace.corpus.document import Block, Layout, Line, Section
    >>> ref = "[2] A. Smith. 2020. Dense retrieval for papers. In ACL."
    >>> body = "Dense retrievers help [2]. They are fast."
    >>> layout = Layout(pages=(), sections=(), blocks=(
    ...     Block(1, (72, 100, 300, 112), body, "body", "1 Intro",
    ...           (Line(1, (72, 100, 300, 112), body, 10, False, "Times"),)),
    ...     Block(2, (72, 100, 300, 112), ref, "reference", "References",
    ...           (Line(2, (72, 100, 300, 112), ref, 9, False, "Times"),)),
    ... ))
    >>> refs = parse_references(layout, "p1")
    >>> refs[0].label, refs[0].first_author, refs[0].year, refs[0].title
    ('2', 'Smith', 2020, 'Dense retrieval for papers')
    >>> [(c.sentence, c.labels, c.reference_titles) for c in find_citations(layout, refs, "p1")]
    [('Dense retrievers help [2].', ('2',), ('Dense retrieval for papers',))]
"""

from littrace.corpus.references.bibliography import parse_references
from littrace.corpus.references.citations import find_citations

__all__ = ["find_citations", "parse_references"]
