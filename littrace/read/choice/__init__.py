"""Multiple choice by alignment with table cells (issue: reading that generalizes).

LitTraceQA's distractors are usually other cells of the table the answer comes from, so an
option's number appearing in the located table proves nothing. Instead:

* **value options** (each option prints one or more numbers): an option's support is, for
  each of its numbers, the best alignment (:func:`littrace.read.units.align`) of a cell that
  prints that number, averaged over its numbers; the cell must say what the question asks
  (its row and column paths), not merely hold the value; of options aligned alike in one
  column, the one whose row label names more of the question wins ("NC-RAPT" over "RAPT"
  for "its novelty-conditioned retrieval-augmented prompt tuning");
* **extreme questions** ("which method is best on X"): each option names a row; the column is
  the one whose header path the question names best; the option whose row holds the extreme
  value wins, lower-is-better read from the question, caption and header
  (:mod:`~littrace.read.choice.cells`);
* **tallies** ("how many of those datasets were used by at least 50 papers", "... are
  marked as having missing values"): the option printing the number of rows of the table
  listing what is counted whose cell in the column the bound names meets it, or whose cell
  in the column of marks the question names has the mark, or is the category the question
  names (:mod:`~littrace.read.choice.tally`);
* **described rows** (options naming rows of a table): the option whose row prints what the
  question says of it, the question's terms weighted by their rarity among the rows; a
  check under "No Prior" says the column's name of its row, a cross does not; an option
  listed under the one group label the question prints in full is that group's
  (:func:`described_row_choice`); a row printing what the question names only as a
  contrast ("rather than BLEU") loses what that says of it;
* **bibliography questions** (:mod:`littrace.read.references`,
  :mod:`~littrace.read.choice.references`): the option printed in the entry at the asked
  position, or in the entries cited by the sentences that best match the question ("which
  work is cited for X"); when the options are reference numbers, the number a selected paper
  gives the work the question names by its authors ("Head et al."), or one number per paper
  ("[67] in the medical-paper reader and [36] in the citation reader"), each read in the
  paper its words describe; when the options are
  years, the year a selected paper's entry for the work the question names (by its quoted
  title or its authors) prints, other than a year the question gives; when the options say
  what a work is cited for, the option the sentences citing the work the question names by
  its authors say most of;
* **sentence windows** (:mod:`~littrace.read.choice.sentences`): an option printed in a
  sentence of a selected paper is supported by how much of the question that sentence names
  (the sentences on either side at half weight), each question term weighted by its rarity
  among the papers' sentences (IDF), so that words describing the paper as a whole decide
  nothing; only its best window counts, so an option printed everywhere gains nothing from
  being printed often, nor from a sentence printing it as the contrast of what it says ("a
  fifth grade reading level rather than second grade"); a footnote is read with the sentence
  marking it (:mod:`littrace.read.footnotes`: "⁴For LED training, we use 3e-5"); an option
  making several claims ("(i) GloVe; (ii) Skip-gram", one name per work "A / B" in the order
  the question names the works) is supported claim by claim, each where it is printed
  (:mod:`~littrace.read.choice.claims`); options that are numbers in distinct rows of one
  table are told apart by the sentence naming one of those rows with the question's words
  ("we ultimately chose variant 3 as the final ...", :func:`row_sentence_choice`); and a
  count is read where a sentence counts the asked noun ("100 LATEX parses",
  :func:`counting_sentence`).

* **display ids** (options "Equation 2", "Eq. 8", "Table 3"): the option whose display's
  description (the text introducing it, its own text and caption, the text after it, the
  sentences citing it by its id) prints most of the question, terms weighted by how few of
  the options' descriptions print them (:mod:`~littrace.read.choice.displays`).

Only a clear winner is returned (support above zero and ahead of the runner-up), with its
grounds for the trace; otherwise the caller falls back to other evidence.

Example:
    >>> choice = aligned_choice(question, data)  # doctest: +SKIP
    >>> choice.label, choice.how  # doctest: +SKIP
    ('C', "Table 1 row ('Bio', 'NER', 'JNLPBA') column ('SCIBERT', 'Frozen') = 75.77")
"""

from littrace.read.choice.cells import (
    Contenders,
    aligned_choice,
    described_row_choice,
    table_contenders,
)
from littrace.read.choice.claims import claim_support
from littrace.read.choice.displays import display_choice
from littrace.read.choice.references import (
    reference_choice,
    reference_number_choice,
    shared_reference_choice,
)
from littrace.read.choice.sentences import (
    counting_sentence,
    printed_support,
    row_sentence_choice,
    sentence_choice,
)
from littrace.read.choice.units import Choice, TableUnits, table_units
from littrace.read.options import option_claims

__all__ = [
    "Choice",
    "Contenders",
    "TableUnits",
    "aligned_choice",
    "claim_support",
    "counting_sentence",
    "described_row_choice",
    "display_choice",
    "option_claims",
    "printed_support",
    "reference_choice",
    "reference_number_choice",
    "row_sentence_choice",
    "sentence_choice",
    "shared_reference_choice",
    "table_contenders",
    "table_units",
]
