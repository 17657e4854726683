"""Which of the labels a figure prints is attached to the words a question quotes from it:
a diagram that tags spans of an example text ("Grouping", "Contrasting") or the parts of a
drawing with short labels."""

from __future__ import annotations

from collections.abc import Sequence

from littrace.littraceqa import Question
from littrace.read.charts.answer import located_figures
from littrace.read.charts.page import Word, read_figure
from littrace.read.records import Fact, SynthesisInput
from littrace.read.text import norm

# The fewest consecutive words a question must copy from a figure to be quoting it: fewer
# is a name or an axis title, which anything near it in the figure could label.
_QUOTED_WORDS = 6
# The nearest label must be at most this share of the next one's distance away.
_NEARER = 0.5


def _gap(a: Word, b: Word) -> float:
    """The distance between two word boxes (0 when they touch or overlap)."""
    dx = max(0.0, b.x0 - a.x1, a.x0 - b.x1)
    dy = max(0.0, b.y0 - a.y1, a.y0 - b.y1)
    return float((dx * dx + dy * dy) ** 0.5)


def _reading_order(words: Sequence[Word]) -> list[Word]:
    """Words by line (top to bottom), then left to right; a word joins the line of the word
    before it when their middles are within half the smaller one's height, so a tall word
    set on its side joins no line of text."""
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (w.cy, w.x0)):
        last = lines[-1][-1] if lines else None
        height = min(word.y1 - word.y0, last.y1 - last.y0) if last else 0.0
        if last is not None and abs(word.cy - last.cy) <= height / 2:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [w for line in lines for w in sorted(line, key=lambda w: w.x0)]


def _printed_at(option: str, words: Sequence[Word]) -> list[int]:
    """Where ``words`` (in reading order) print ``option``: the index of each run of words
    whose text is the option's, by its first word."""
    wanted = norm(option).split()
    found = []
    for start in range(len(words)):
        run: list[str] = []
        end = start
        while end < len(words) and len(run) < len(wanted):
            run += norm(words[end].text).split()
            end += 1
        if run and run == wanted:
            found.append(start)
    return found


def quoted_words(question: str, words: Sequence[Word]) -> list[Word]:
    """The longest run of ``words`` (in reading order) whose tokens the question prints one
    after the other, when it has at least ``_QUOTED_WORDS`` tokens; else []."""
    asked = norm(question).split()
    tokens: list[tuple[str, int]] = [
        (token, i) for i, word in enumerate(words) for token in norm(word.text).split()
    ]
    best: tuple[int, int] = (0, 0)
    # Longest common run of tokens, by dynamic programming over the two token sequences.
    previous = [0] * (len(asked) + 1)
    for i, (token, _) in enumerate(tokens):
        current = [0] * (len(asked) + 1)
        for j, said in enumerate(asked):
            if token == said:
                current[j + 1] = previous[j] + 1
                if current[j + 1] > best[0]:
                    best = (current[j + 1], i)
        previous = current
    length, last = best
    if length < _QUOTED_WORDS:
        return []
    held = {tokens[k][1] for k in range(last - length + 1, last + 1)}
    return [words[i] for i in sorted(held)]


def attached_label(question: Question, data: SynthesisInput) -> tuple[str, list[Fact], str] | None:
    """The option printed once in a located figure nearest the words the question quotes
    from that figure, when every option is printed there and the nearest is clearly nearer
    than the next; with the figure as a fact, and how.

    Example:
        >>> attached_label(question, data)  # doctest: +SKIP
        ('D', [Fact(...)], "label nearest the quoted words in Figure 1: 'Grouping'")
    """
    options = question.multiple_choice_options or []
    if len(options) < 2:
        return None
    for context, obj in located_figures(question, data):
        pdf_path = context.paper.pdf_path
        figure = read_figure(pdf_path, obj.page, obj.bbox) if pdf_path else None
        if figure is None:
            continue
        words = _reading_order(figure.words)
        placed = {o.label: _printed_at(o.text, words) for o in options}
        if any(len(at) != 1 for at in placed.values()):
            continue
        labels = {i for at in placed.values() for i in at}
        quoted = quoted_words(
            question.question, [w for i, w in enumerate(words) if i not in labels]
        )
        if not quoted:
            continue
        distance = {
            label: min(_gap(words[at[0]], w) for w in quoted) for label, at in placed.items()
        }
        nearest, runner_up = sorted(distance, key=distance.__getitem__)[:2]
        if distance[nearest] > _NEARER * distance[runner_up]:
            continue
        text = next(o.text for o in options if o.label == nearest)
        chunk_id = next((c.chunk_id for c in context.chunks if c.object_id == obj.object_id), "")
        fact = Fact(context.paper_id, chunk_id, f"{obj.scorer_id}: {text}", entity=text)
        return nearest, [fact], f"label nearest the quoted words in {obj.scorer_id}: {text!r}"
    return None
