"""LitTraceQA records as pydantic models, strict where the official JSON schemas are strict.

The models mirror ``littrace/schemas/*.schema.json`` (copies of the official release):
the same required fields, ``additionalProperties: false`` as ``extra="forbid"``, integer
pages >= 1, upper-case option letters, and the input's "options iff multiple_choice, schema
iff table" rules. Pool papers are the exception: their extra metadata (pdf_url, source ids)
is kept. :func:`read_jsonl` names the file and line of every bad line.

Example:
    >>> from pathlib import Path
    >>> questions = read_jsonl(Path("test.jsonl"), Question)  # doctest: +SKIP
    >>> record = Submission(query_id="q_001", gold_papers=[PredictedPaper(paper_id="p1")],
    ...     answer=SubmissionAnswer(multiple_choice=MultipleChoiceAnswer(gold="C")))
    >>> record.to_json_line()
    '{"query_id":"q_001","gold_papers":[{"paper_id":"p1"}],"answer":{"multiple_choice":{"gold":"C"}}}'
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal, TypeVar

import jsonschema
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

AnswerType = Literal["freeform", "multiple_choice", "table"]
SourceType = Literal["table", "figure", "text_span", "equation_algorithm", "citation_context"]
ColumnType = Literal["string", "number", "boolean"]
TaskFamily = Literal["hidden_source_single_paper", "multi_paper"]
SOURCE_TYPES: tuple[SourceType, ...] = (
    "table",
    "figure",
    "text_span",
    "equation_algorithm",
    "citation_context",
)
OFFICIAL_SCHEMAS = ("input", "littraceqa", "submission")

NonEmpty = Annotated[str, Field(min_length=1)]
Page = Annotated[int, Field(ge=1)]
Letter = Annotated[str, Field(pattern=r"^[A-Z]$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    # Optional fields are absent-or-valued in the official schemas; explicit null is allowed
    # only for the fields named here.
    nullable_fields: ClassVar[frozenset[str]] = frozenset()

    @model_validator(mode="before")
    @classmethod
    def _reject_null_optionals(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for name, value in data.items():
                if value is None and name in cls.model_fields and name not in cls.nullable_fields:
                    raise ValueError(f"{name} must not be null")
        return data

    def to_json_line(self) -> str:
        """Compact JSON without absent (None) optional fields, in declaration order."""
        return self.model_dump_json(exclude_none=True, by_alias=True)


# --- pool -----------------------------------------------------------------------------------


class PoolPaper(BaseModel):
    """A paper of the metadata pool (``paper_metadata.jsonl``); unknown fields are kept."""

    model_config = ConfigDict(extra="allow", frozen=True)

    paper_id: NonEmpty
    title: str = ""
    authors: list[str] | str = Field(default_factory=list)
    abstract: str = ""
    venue: str = ""
    year: int | None = None
    pdf_url: str | None = None
    pdf: str | None = Field(default=None, description="PDF path relative to the PDF folder.")

    @field_validator("title", "authors", "abstract", "venue", mode="before")
    @classmethod
    def _null_is_empty(cls, value: Any) -> Any:
        # Metadata-only records (e.g. distractors) carry null for what their source lacks.
        return "" if value is None else value


# --- input questions ------------------------------------------------------------------------


class MultipleChoiceOption(_Strict):
    label: Letter
    text: NonEmpty


class TableColumn(_Strict):
    name: NonEmpty
    type: ColumnType
    is_row_key: bool


class Question(_Strict):
    """An input question (``input.schema.json``)."""

    query_id: NonEmpty
    benchmark: Literal["LitTraceQA"]
    question: NonEmpty
    answer_types: Annotated[list[AnswerType], Field(min_length=1)]
    multiple_choice_options: Annotated[list[MultipleChoiceOption], Field(min_length=2)] | None = (
        None
    )
    table_schema: Annotated[list[TableColumn], Field(min_length=1)] | None = None

    @model_validator(mode="after")
    def _options_and_schema_match_types(self) -> Question:
        if len(set(self.answer_types)) != len(self.answer_types):
            raise ValueError("answer_types must not repeat")
        wants_choice = "multiple_choice" in self.answer_types
        if wants_choice != (self.multiple_choice_options is not None):
            raise ValueError(
                "multiple_choice_options is required iff answer_types has multiple_choice"
            )
        if ("table" in self.answer_types) != (self.table_schema is not None):
            raise ValueError("table_schema is required iff answer_types has table")
        return self


# --- gold -----------------------------------------------------------------------------------


class GoldPaper(_Strict):
    paper_id: NonEmpty
    title: NonEmpty
    venue: NonEmpty
    year: int


# The official gold breaks its own schema in 13 of 55 validation records (integer sections
# and citation ids, words in sentence_start), so gold locator details accept any scalar.
LocatorDetail = str | int | float | None


class GoldLocator(_Strict):
    nullable_fields = frozenset(
        {"table_id", "row", "column", "figure_id", "region", "section", "paragraph_id"}
        | {"sentence_start", "sentence_end", "equation_id", "algorithm_id", "citation_id"}
        | {"cited_paper"}
    )

    page: Page | None = None
    table_id: LocatorDetail = None
    row: LocatorDetail = None
    column: LocatorDetail = None
    figure_id: LocatorDetail = None
    region: LocatorDetail = None
    section: LocatorDetail = None
    paragraph_id: LocatorDetail = None
    sentence_start: LocatorDetail = None
    sentence_end: LocatorDetail = None
    equation_id: LocatorDetail = None
    algorithm_id: LocatorDetail = None
    citation_id: LocatorDetail = None
    cited_paper: LocatorDetail = None

    @model_validator(mode="after")
    def _not_empty(self) -> GoldLocator:
        if not self.model_fields_set:
            raise ValueError("locator must have at least one field")
        return self


class GoldEvidence(_Strict):
    nullable_fields = frozenset({"evidence_text_or_value"})

    evidence_id: NonEmpty
    paper_id: NonEmpty
    source_type: SourceType
    evidence_text_or_value: str | int | float | bool | None = None
    locator: GoldLocator


class FreeformAnswer(_Strict):
    text: str


class GoldFreeformAnswer(_Strict):
    text: NonEmpty


class GoldMultipleChoiceAnswer(_Strict):
    options: dict[Letter, NonEmpty]
    gold: Letter

    @model_validator(mode="after")
    def _two_options(self) -> GoldMultipleChoiceAnswer:
        if len(self.options) < 2:
            raise ValueError("options must have at least two letters")
        return self


class GoldTableAnswer(_Strict):
    table_schema: Annotated[list[TableColumn], Field(min_length=1, alias="schema")]
    rows: Annotated[list[dict[str, Any]], Field(min_length=1)]

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)


class GoldAnswer(_Strict):
    freeform: GoldFreeformAnswer | None = None
    multiple_choice: GoldMultipleChoiceAnswer | None = None
    table: GoldTableAnswer | None = None

    @model_validator(mode="after")
    def _not_empty(self) -> GoldAnswer:
        if not self.model_fields_set:
            raise ValueError("answer must have at least one component")
        return self


class GoldRecord(_Strict):
    """A gold validation record (``littraceqa.schema.json``)."""

    query_id: NonEmpty
    benchmark: Literal["LitTraceQA"]
    task_family: TaskFamily
    primary_evidence_type: SourceType
    question: NonEmpty
    answer_types: Annotated[list[AnswerType], Field(min_length=1)]
    gold_papers: Annotated[list[GoldPaper], Field(min_length=1)]
    evidence: Annotated[list[GoldEvidence], Field(min_length=1)]
    answer: GoldAnswer


# --- submission -----------------------------------------------------------------------------


class PredictedPaper(_Strict):
    paper_id: NonEmpty


class Locator(_Strict):
    """A submission locator: only the keys the submission schema allows."""

    page: Page | None = None
    table_id: str | None = None
    figure_id: str | None = None
    section: str | None = None
    equation_id: str | None = None
    algorithm_id: str | None = None
    citation_id: str | None = None


class PredictedEvidence(_Strict):
    paper_id: NonEmpty
    source_type: SourceType
    locator: Locator


class MultipleChoiceAnswer(_Strict):
    gold: Annotated[str, Field(pattern=r"^[A-Z]?$")]


class TableAnswer(_Strict):
    rows: list[dict[str, Any]]


class SubmissionAnswer(_Strict):
    freeform: FreeformAnswer | None = None
    multiple_choice: MultipleChoiceAnswer | None = None
    table: TableAnswer | None = None


class Submission(_Strict):
    """One submission line (``submission.schema.json``)."""

    query_id: NonEmpty
    gold_papers: list[PredictedPaper]
    evidence: list[PredictedEvidence] | None = None
    answer: SubmissionAnswer


# --- official JSON schemas ------------------------------------------------------------------


@cache
def official_schema(name: str) -> dict[str, Any]:
    """One of the bundled official schemas: ``input``, ``littraceqa`` or ``submission``."""
    if name not in OFFICIAL_SCHEMAS:
        raise ValueError(f"unknown schema {name!r}; expected one of {OFFICIAL_SCHEMAS}")
    text = resources.files("littrace.schemas").joinpath(f"{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def schema_errors(record: Any, name: str) -> list[str]:
    """Messages of every violation of the official JSON schema ``name`` (empty when valid)."""
    validator = jsonschema.Draft202012Validator(official_schema(name))
    return [
        f"{'/'.join(str(part) for part in error.absolute_path) or '<record>'}: {error.message}"
        for error in sorted(validator.iter_errors(record), key=lambda e: list(e.absolute_path))
    ]


# --- JSONL ----------------------------------------------------------------------------------

ModelT = TypeVar("ModelT", bound=BaseModel)


@dataclass(frozen=True)
class BadLine:
    """One unreadable or invalid line of a JSONL file."""

    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class JsonlError(ValueError):
    """A JSONL file with bad lines; ``bad_lines`` lists every one of them."""

    def __init__(self, bad_lines: list[BadLine]) -> None:
        self.bad_lines = bad_lines
        shown = "; ".join(str(bad) for bad in bad_lines[:5])
        more = f" (and {len(bad_lines) - 5} more bad lines)" if len(bad_lines) > 5 else ""
        super().__init__(shown + more)


def _describe(error: ValidationError) -> str:
    parts = []
    for detail in error.errors(include_url=False):
        where = ".".join(str(part) for part in detail["loc"])
        parts.append(f"{where}: {detail['msg']}" if where else detail["msg"])
    return "; ".join(parts)


def iter_jsonl(path: Path, model: type[ModelT]) -> Iterator[ModelT | BadLine]:
    """Yield each non-blank line of ``path`` as a ``model`` or, if it is bad, a :class:`BadLine`."""
    try:
        with path.open(encoding="utf-8") as handle:
            for line_no, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    yield model.model_validate(json.loads(line))
                except json.JSONDecodeError as error:
                    yield BadLine(path, line_no, f"invalid JSON ({error.msg})")
                except ValidationError as error:
                    yield BadLine(path, line_no, _describe(error))
    except UnicodeDecodeError as error:
        yield BadLine(path, 0, f"not UTF-8 ({error.reason})")


def read_jsonl(path: Path, model: type[ModelT]) -> list[ModelT]:
    """Every record of ``path`` as ``model``; raises :class:`JsonlError` listing all bad lines."""
    records: list[ModelT] = []
    bad_lines: list[BadLine] = []
    for item in iter_jsonl(path, model):
        if isinstance(item, BadLine):
            bad_lines.append(item)
        else:
            records.append(item)
    if bad_lines:
        raise JsonlError(bad_lines)
    return records
