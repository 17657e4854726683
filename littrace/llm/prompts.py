"""Prompt templates of every LLM step, rendered into chat messages.

Each prompt is a file ``littrace/prompts/<name>.txt`` in :class:`string.Template` syntax
(``$question`` or ``${question}``; ``$$`` is a literal dollar), so the JSON examples in the
templates keep their braces as they are. A first line ``@system <name>`` names the shared system
prompt ``littrace/prompts/_system_<name>.txt``; files starting with ``_`` are parts, not prompts.

:func:`render` returns the exact messages sent for a call, without calling anything. It checks
that the values fill every placeholder and that no unknown value is passed, and derives:

- ``venue_line`` from ``venue`` and ``year``: the [VENUE YEAR] instruction (Lit3R App. C,
  Figure 6) when the question names both, otherwise nothing;
- ``missing``: the filler "(No specific note from the LLM. Search from a different angle.)"
  when the verifier reported nothing (Lit3R App. C);
- ``confidence_rule`` from ``confidence`` (conservative, balanced, aggressive; IntrAgent App. E.4);
- ``table_format``: how the reader prompts show a table, as cells with header paths
  (``_table_cells.txt``; :class:`littrace.read.passages.PaperView` renders them).

Lists of strings become one ``- item`` line each; ``None`` becomes an empty string.

Example:
    >>> messages = render(
    ...     "decompose_first", question="Which ACL 2023 paper ...?", answer_spec="freeform",
    ...     count=4, venue="ACL", year=2023)
    >>> [message["role"] for message in messages]
    ['system', 'user']
    >>> "[ACL 2023]" in messages[1]["content"]
    True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources
from string import Template

__all__ = ["MISSING_FILLER", "PromptError", "Value", "prompt_names", "render"]

MISSING_FILLER = "(No specific note from the LLM. Search from a different angle.)"
Value = str | int | float | Sequence[str] | None

_SYSTEM_HEADER = "@system "
_CONFIDENCE_RULES = {
    "conservative": "Call the information sufficient only when every part of the question is "
    "answered explicitly by the details, with exact values where values are asked for.",
    "balanced": "Call the information sufficient when the details answer the question with "
    "high confidence; small gaps that do not change the answer are acceptable.",
    "aggressive": "Call the information sufficient as soon as the details point clearly to "
    "one answer, even if some supporting specifics are missing.",
}


class PromptError(ValueError):
    """A prompt that does not exist, or values that do not fit its placeholders."""


def prompt_names() -> list[str]:
    """Every renderable prompt, sorted."""
    return list(_names())


@cache
def _names() -> tuple[str, ...]:
    folder = resources.files("littrace").joinpath("prompts")
    return tuple(
        sorted(
            entry.name.removesuffix(".txt")
            for entry in folder.iterdir()
            if entry.name.endswith(".txt") and not entry.name.startswith("_")
        )
    )


def render(name: str, /, **values: Value) -> list[dict[str, str]]:
    """The chat messages of prompt ``name`` filled with ``values`` (system message first)."""
    if name not in _names():
        raise PromptError(f"unknown prompt '{name}'; available: {', '.join(prompt_names())}")
    system, user = _load(name)
    templates = [template for template in (system, user) if template is not None]
    wanted = set().union(*(template.get_identifiers() for template in templates))
    filled = _derive(wanted, dict(values))

    missing = sorted(wanted - filled.keys())
    unknown = sorted(filled.keys() - wanted)
    if missing or unknown:
        problems = [f"missing {', '.join(missing)}"] if missing else []
        problems += [f"unknown {', '.join(unknown)}"] if unknown else []
        raise PromptError(f"prompt '{name}': {'; '.join(problems)}")

    text = {key: _text(value) for key, value in filled.items()}
    messages = [{"role": "system", "content": system.substitute(text)}] if system else []
    messages.append({"role": "user", "content": user.substitute(text)})
    return messages


def _derive(wanted: set[str], values: dict[str, Value]) -> dict[str, Value]:
    """Fill the derived placeholders, consuming the values they are derived from."""
    derivations: dict[str, Callable[[dict[str, Value]], Value]] = {
        "venue_line": _venue_line,
        "missing": lambda given: given.get("missing") or MISSING_FILLER,
        "confidence_rule": _confidence_rule,
        "table_format": lambda given: _part("_table_cells").template.strip(),
    }
    for placeholder, derive in derivations.items():
        if placeholder in wanted:
            values[placeholder] = derive(values)
    return values


def _venue_line(values: dict[str, Value]) -> str:
    # Lit3R App. C: the tag instruction appears only when the question names a venue AND a year.
    venue, year = values.pop("venue", None), values.pop("year", None)
    if not venue or not year:
        return ""
    tag = f"[{str(venue).strip()} {str(year).strip()}]"
    line = _part("_venue_year").substitute(tag=tag)
    return line.rstrip("\n") + "\n\n"


def _confidence_rule(values: dict[str, Value]) -> str:
    level = values.pop("confidence", "balanced")
    if not isinstance(level, str) or level not in _CONFIDENCE_RULES:
        raise PromptError(f"confidence must be one of {', '.join(_CONFIDENCE_RULES)}")
    return _CONFIDENCE_RULES[level]


def _text(value: Value) -> str:
    if value is None:
        return ""
    if isinstance(value, str | int | float):
        return str(value)
    return "\n".join(f"- {item}" for item in value)


@cache
def _load(name: str) -> tuple[Template | None, Template]:
    raw = _read(name)
    if not raw.startswith(_SYSTEM_HEADER):
        return None, Template(raw)
    header, _, body = raw.partition("\n")
    system_name = header.removeprefix(_SYSTEM_HEADER).strip()
    return _part(f"_system_{system_name}"), Template(body)


@cache
def _part(name: str) -> Template:
    return Template(_read(name))


def _read(name: str) -> str:
    path = resources.files("littrace").joinpath("prompts", f"{name}.txt")
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PromptError(f"missing prompt file prompts/{name}.txt") from None
