"""LitTraceQA questions with exact gold over rendered synthetic papers.

Every answer and locator comes from the plan and the layout, never from guessing: a table
question's page is the page the grid was drawn on, a citation question's page is where the
citing sentence or the reference entry landed. Text and citation questions only use
sentences that sit on one page in one column, so the page text contains them verbatim.

Single-paper questions describe the paper by its method and task, never by its title (the
real task hides the source paper). Multi-paper questions span 3-5 papers of one line of
work; most name every method, ``multi_followup`` names one paper and asks about the papers
that cite it, which only the line's shared references and topic point to. :data:`SCHEDULE` fixes the mix for 30 questions; more questions repeat it.

Example:
    >>> import random
    >>> from littrace.synth.plan import plan_corpus
    >>> from littrace.synth.prose import paper_body
    >>> from littrace.synth.render import render_paper
    >>> plan = plan_corpus(random.Random(0), 3)
    >>> papers = [render_paper(p, paper_body(p, random.Random(1), 3)) for p in plan.papers]
    >>> [q.kind for q in build_questions(random.Random(2), papers, n_questions=4)]
    ['table_value', 'multi_table', 'text_fact', 'figure']
"""

from littrace.synth.questions.schedule import SCHEDULE, build_questions

__all__ = ["SCHEDULE", "build_questions"]
