"""Caption bodies: walks away from each caption inside its column, the side chosen, and
bodies on the next or previous page."""

from __future__ import annotations

import math
from collections import Counter

from littrace.corpus.captions import Caption
from littrace.corpus.document import BBox, ObjectKind
from littrace.corpus.objects.pages import Page, Pages
from littrace.corpus.objects.regions import Key, Region, is_rule, spans_gutter

# Walk gaps in body-font sizes: caption to its body, and between parts of the body.
_FIRST_GAP = 3.5
_NEXT_GAP = 2.0

# Where the body sits relative to its caption when the page itself does not say.
_DEFAULT_SIDE: dict[ObjectKind, str] = {"figure": "above", "table": "below", "algorithm": "below"}


def assign_bodies(pages: Pages, captions: list[Caption]) -> dict[int, Region]:
    """Each caption's body region, keyed by ``id(caption)``; captions without one are absent."""
    sides: dict[int, dict[str, Region | None]] = {}
    votes: Counter[tuple[str, str]] = Counter()
    for caption in captions:
        if caption.label.kind == "figure":
            pages[caption.page - 1].want_images()
    for caption in captions:
        page = pages[caption.page - 1]
        found = {side: _walk_from(page, caption, side) for side in ("above", "below")}
        sides[id(caption)] = found
        levels = {side: _level(region, caption) for side, region in found.items()}
        if levels["above"] != levels["below"]:
            votes[(caption.label.kind, max(levels, key=lambda s: levels[s]))] += 1
    # Clear cases claim their bodies first, so an ambiguous caption cannot take them.
    order = sorted(
        captions,
        key=lambda c: _level(sides[id(c)]["above"], c) == _level(sides[id(c)]["below"], c),
    )
    bodies: dict[int, Region] = {}
    for caption in order:
        page = pages[caption.page - 1]
        for side in _side_order(caption, sides[id(caption)], votes):
            # The first walks ran before any claim; on a page still without one they hold.
            region = _walk_from(page, caption, side) if page.claimed else sides[id(caption)][side]
            if region is not None and region.level(caption.label.kind) > 0:
                bodies[id(caption)] = region
                page.claimed |= region.keys
                break
    for caption in captions:
        if id(caption) not in bodies:
            region = _other_page_body(pages, caption)
            if region is not None:
                bodies[id(caption)] = region
                pages[region.page].claimed |= region.keys
    return bodies


def _level(region: Region | None, caption: Caption) -> int:
    return 0 if region is None else region.level(caption.label.kind)


def _side_order(
    caption: Caption, found: dict[str, Region | None], votes: Counter[tuple[str, str]]
) -> list[str]:
    kind = caption.label.kind
    above, below = _level(found["above"], caption), _level(found["below"], caption)
    if above != below:
        first = "above" if above > below else "below"
    elif votes[(kind, "above")] != votes[(kind, "below")]:
        first = "above" if votes[(kind, "above")] > votes[(kind, "below")] else "below"
    else:
        first = _DEFAULT_SIDE[kind]
    return [first, "below" if first == "above" else "above"]


def _band(page: Page, box: BBox) -> tuple[float, float]:
    """The horizontal extent a caption's body may use: its column, or the text width.

    On a one-column page a caption wrapped inside one half is a float set beside another
    (a table next to a figure): its body keeps to that half.
    """
    x0, x1 = page.text_x0 - 5, page.text_x1 + 5
    mid = (page.text_x0 + page.text_x1) / 2
    halves = page.two_column or box[3] - box[1] >= 1.8 * page.style.size
    if halves and box[2] <= mid + 15:
        return x0, mid
    if halves and box[0] >= mid - 15:
        return mid, x1
    return x0, x1


def _walk_from(page: Page, caption: Caption, side: str) -> Region | None:
    box = caption.bbox
    start = box[1] if side == "above" else box[3]
    first_gap = _FIRST_GAP * page.style.size
    return _walk(page, _band(page, box), start, side == "below", first_gap, caption.label.kind)


def _other_page_body(pages: Pages, caption: Caption) -> Region | None:
    """A body on the next page's top (caption ends its page) or the previous page's bottom.

    Text flows from the bottom of the last column to the top of the next page's first, so
    each page is tried across its width first and then column by column in that order. On
    a two-column page, a body across the width must reach over the gutter: otherwise it is
    the top of both columns (a table and the references beside it), not one wide object.
    """
    index, kind = caption.page - 1, caption.label.kind
    lower_half = caption.bbox[1] > pages[index].scan.height / 2
    tries = [(index + 1, True), (index - 1, False)]
    for page_index, down in tries if lower_half else tries[::-1]:
        if not 0 <= page_index < len(pages):
            continue
        page = pages[page_index]
        if kind == "figure":
            page.want_images()
        x0, x1 = page.text_x0 - 5, page.text_x1 + 5
        mid = (page.text_x0 + page.text_x1) / 2
        bands = [(x0, x1)]
        if page.two_column:
            bands += [(x0, mid), (mid, x1)] if down else [(mid, x1), (x0, mid)]
        start = 0.0 if down else page.scan.height
        for band in bands:
            region = _walk(page, band, start, down, page.scan.height, kind)
            if region is None or region.level(kind) < 2:
                continue
            if band == (x0, x1) and page.two_column and not spans_gutter(region, mid):
                continue
            return region
    return None


def _walk(
    page: Page,
    band: tuple[float, float],
    start: float,
    down: bool,
    first_gap: float,
    kind: ObjectKind,
) -> Region | None:
    """Items in ``band`` beyond ``start`` that follow each other closely, up to a stopper.

    A walk for a table or an algorithm also ends at the rule that closes it (see
    :func:`_closes`), whatever follows that rule closely.
    """
    scan = page.scan
    next_gap = _NEXT_GAP * page.style.size
    frontier = start
    taken: list[tuple[BBox, Key]] = []
    text = False  # whether a fragment was taken
    reach = (math.inf, -math.inf)  # the horizontal extent of what was taken
    band0, band1 = band
    # Most items lie outside the band: plain comparisons, not min()/max() calls, in here.
    for box, key in page.ahead(start, down):
        x0, x1 = box[0], box[2]
        inside = (x1 if x1 <= band1 else band1) - (x0 if x0 >= band0 else band0)
        width = x1 - x0 if x1 - x0 >= 0.1 else 0.1
        if inside >= 0.8 * width:
            crossing = False
        elif inside >= 0.2 * width and width > 30:
            crossing = True  # reaching well across the band's edge: a wall
        else:
            continue
        gap = box[1] - frontier if down else frontier - box[3]
        if gap > (next_gap if taken else first_gap):
            break
        if crossing or _stops(page, key):
            break
        taken.append((box, key))
        frontier = max(frontier, box[3]) if down else min(frontier, box[1])
        if text and key[0] == "g" and _closes(page, box, down, kind, reach):
            if kind == "table" and not down:
                taken += _header_over(page, box, reach)
            break
        text = text or key[0] == "l"
        reach = (min(reach[0], box[0]), max(reach[1], box[2]))
    if not taken:
        return None
    lines = tuple(scan.lines[key[1]] for _, key in taken if key[0] == "l")
    graphics = tuple(box for box, key in taken if key[0] == "g")
    return Region(scan.number - 1, lines, graphics, frozenset(key for _, key in taken))


def _header_over(page: Page, rule: BBox, reach: tuple[float, float]) -> list[tuple[BBox, Key]]:
    """The header rows of a table printed over its top rule's span without a rule of their
    own above them (a caption below, "method | #F | K400" over the first rule): the cell
    text within two rows above the rule, inside the table's width, up to prose or a rule
    across."""
    limit = rule[1] - 2.2 * page.style.size
    header: list[tuple[BBox, Key]] = []
    for box, key in page.ahead(rule[1], False):
        if box[3] < limit:
            break
        if box == rule or box[0] < reach[0] - 5 or box[2] > reach[1] + 5:
            continue
        if key[0] == "g":
            if box[2] - box[0] > 1.5:  # a column separator is no wall; a rule across is
                break
            header.append((box, key))
        elif _stops(page, key):
            break
        else:
            header.append((box, key))
    return header


def _closes(
    page: Page, box: BBox, down: bool, kind: ObjectKind, reach: tuple[float, float]
) -> bool:
    """Whether the graphic ``box``, met after text, closes a ``kind`` body walked this way.

    Only a rule as wide as what was taken (``reach``) closes: not a rule under a group of
    columns. Such a rule after an algorithm's steps closes its box; a table closes at the
    far rule of its ruled span (the bottom rule below a caption above it), not at a rule
    between rows.
    """
    if kind not in ("algorithm", "table") or not is_rule(box):
        return False
    if box[0] > reach[0] + 5 or box[2] < reach[1] - 5:
        return False
    if kind == "algorithm":
        return True
    edge = 3 if down else 1
    return any(
        abs(box[edge] - span[edge]) <= 0.5
        and abs(box[0] - span[0]) <= 5
        and abs(box[2] - span[2]) <= 5
        for span in page.spans()
    )


def _stops(page: Page, key: Key) -> bool:
    if key in page.claimed:
        return True
    kind, index = key
    if kind != "l":
        return False
    if index in page.caption_lines or index in page.equation_lines:
        return True
    return (index in page.prose or index in page.headings) and index not in page.protected()
