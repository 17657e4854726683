"""Pydantic schemas of every LLM step's JSON output.

Each prompt in ``littrace/prompts`` asks for exactly one of these models, and
:meth:`littrace.llm.client.LlmClient.complete_json` validates the reply against it (and sends
its JSON Schema as ``response_format`` where the provider supports one).

Example:
    >>> from littrace.llm.replies import Subqueries
    >>> Subqueries.model_validate_json('{"subqueries": ["[ACL 2023] sparse retrieval"]}')
    Subqueries(subqueries=['[ACL 2023] sparse retrieval'])
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from littrace.littraceqa import SourceType

# The readers' number parsing, so a fact's value reads as the same number in a passage does.
from littrace.numbers import first_number

__all__ = [
    "RESULT",
    "Calculation",
    "Detail",
    "EvidenceItem",
    "ExtractedFact",
    "Localization",
    "Locus",
    "PaperJudgement",
    "Plan",
    "ReadingAction",
    "SectionRanking",
    "Subqueries",
    "Sufficiency",
    "Synthesis",
    "TargetGroup",
    "Verification",
    "first_number",
]

Modality = Literal["text", "table", "figure", "equation", "algorithm", "citation"]
Cell = str | int | float | bool | None
Operation = Literal["difference", "ratio", "percentage", "percent_change", "sum", "mean"]
RESULT = "<result>"  # where a synthesis answer takes the value computed in Python

# Operand counts of each operation: (fewest, most); None is unbounded.
_ARITY: dict[str, tuple[int, int | None]] = {
    "difference": (2, 2),
    "ratio": (2, 2),
    "percentage": (2, 2),
    "percent_change": (2, 2),
    "sum": (2, None),
    "mean": (2, None),
}


class _Output(BaseModel):
    # Extra keys are ignored rather than fatal: models often add a harmless "notes" field, and a
    # repair round-trip for it would cost a call without changing the result.
    model_config = ConfigDict(extra="ignore", frozen=True)


# --------------------------------------------------------------------------- planning (TRACE)


class TargetGroup(_Output):
    name: str = Field(description="Short label of the group, e.g. 'the proposed method'.")
    role: Literal["answer_target", "evidence_anchor", "constraint"] = Field(
        description="answer_target: papers the answer comes from; evidence_anchor: papers named "
        "to locate the evidence; constraint: papers that only narrow the search."
    )
    query: str = Field(description="A search query that finds papers of this group.")
    anchors: list[str] = Field(
        default_factory=list, description="Names, titles or terms that identify the group."
    )


class Plan(_Output):
    """TRACE §3.1 planner output: constraints, modalities, paper count and target groups."""

    venue: str | None = Field(default=None, description="Venue the question names, if any.")
    year: int | None = Field(default=None, description="Year the question names, if any.")
    modalities: list[Modality] = Field(
        default_factory=list, description="Evidence kinds the answer needs."
    )
    desired_papers: Annotated[int, Field(ge=1, le=5)] = Field(
        default=1, description="How many papers the answer draws on (hard cap of five)."
    )
    named_anchors: list[str] = Field(
        default_factory=list, description="Methods, datasets or titles named in the question."
    )
    target_groups: list[TargetGroup] = Field(default_factory=list)
    rows: list[str] = Field(
        default_factory=list,
        description="Closed row ledger: the shortest literal names of entities a table "
        "question lists; empty when it lists none.",
    )


# --------------------------------------------------------------------------- retrieval (Lit3R)


class Subqueries(_Output):
    """Lit3R §2.1.2 decomposition; an empty list ends retrieval.

    The count asked for (``retrieve.decompose``) is in the prompt, not the schema, so a model
    that proposes one too many is trimmed by the caller instead of costing a repair call.
    """

    subqueries: list[str]


class Verification(_Output):
    """Lit3R §2.1.2 evidence verification of the pool's top papers."""

    evidence_papers: list[str] = Field(
        default_factory=list, description="Identifiers of listed papers that contain evidence."
    )
    sufficient: bool
    missing: str = Field(default="", description="What is still missing; empty if sufficient.")


# --------------------------------------------------------------------------- reading (Lit3R)


class PaperJudgement(_Output):
    """Lit3R reader stage 1 (§2.2.1): relevance, sufficiency and the supporting chunks."""

    relevant: bool
    sufficient: bool = Field(
        default=False,
        description="The supporting chunks hold everything this paper contributes to the answer.",
    )
    supporting_chunks: list[str] = Field(
        default_factory=list, description="Chunk identifiers that support the verdict."
    )
    rationale: str = ""


class EvidenceItem(_Output):
    paper_id: str
    chunk_id: str | None = None
    source_type: SourceType
    page: Annotated[int, Field(ge=1)] | None = None
    object_id: str | None = Field(default=None, description="e.g. 'Table 4' as printed.")


class ExtractedFact(_Output):
    """Lit3R §2.2.2: one fact the answer needs, with its value, unit, paper and chunk."""

    paper_id: str
    chunk_id: str
    quantity: str = Field(description="What the value measures, e.g. 'Lanternfish F1 on Quarry'.")
    value: str = Field(default="", description="The number exactly as printed, e.g. '91.40'.")
    unit: str = ""

    @property
    def number(self) -> tuple[float, int] | None:
        """The value as a float with its printed decimals; None when it holds no number."""
        return first_number(self.value)


class Calculation(_Output):
    """A calculation the answer needs, over facts by index; Python computes it, not the model.

    difference a-b, ratio a/b, percentage 100*a/b, percent_change 100*(a-b)/b; sum, mean.
    """

    operation: Operation
    operands: list[Annotated[int, Field(ge=0)]] = Field(
        description="Indices into 'facts' (0-based), in the order the operation takes them."
    )
    decimals: Annotated[int, Field(ge=0, le=6)] | None = Field(
        default=None, description="Digits after the point; null keeps the operands' precision."
    )


class Synthesis(_Output):
    """Lit3R reader stage 2 (§2.2.2): facts, an optional calculation, and the answer.

    With a calculation, the answer writes ``<result>`` (:data:`RESULT`) where the computed
    value goes, in the free text or a table cell.
    """

    freeform: str | None = None
    multiple_choice: Annotated[str, Field(pattern=r"^[A-Z]$")] | None = None
    table_rows: list[dict[str, Cell]] | None = None
    papers: list[str] = Field(default_factory=list)
    evidence: list[EvidenceItem] = Field(default_factory=list)
    facts: list[ExtractedFact] = Field(default_factory=list)
    calculation: Calculation | None = None
    rationale: str = ""

    @model_validator(mode="after")
    def _calculation_fits(self) -> Synthesis:
        calculation = self.calculation
        if calculation is None:
            return self
        fewest, most = _ARITY[calculation.operation]
        count = len(calculation.operands)
        if count < fewest or (most is not None and count > most):
            wanted = f"{fewest}" if fewest == most else f"at least {fewest}"
            raise ValueError(f"{calculation.operation} takes {wanted} operands, got {count}")
        for index in calculation.operands:
            if index >= len(self.facts):
                raise ValueError(f"operand {index} is not an index into facts")
            if self.facts[index].number is None:
                raise ValueError(f"facts[{index}].value holds no number")
        cells = [str(cell) for row in self.table_rows or [] for cell in row.values()]
        if not any(RESULT in text for text in [self.freeform or "", *cells]):
            raise ValueError(f"a calculation needs {RESULT} in freeform or a table cell")
        return self


# --------------------------------------------------------------------------- evidence (TRACE)


class Locus(_Output):
    """TRACE §3.2: one typed place in a paper that holds evidence for the question."""

    source_type: SourceType
    page: Annotated[int, Field(ge=1)]
    object_id: str | None = Field(default=None, description="e.g. 'Table 2', as listed.")
    section: str | None = None
    citation_id: str | None = Field(default=None, description="The reference number cited.")
    quote: str = Field(default="", description="A few words of the place, as printed.")
    confidence: Annotated[float, Field(ge=0, le=1)] = 0.5


class Localization(_Output):
    """TRACE §3.2: the typed locators an LLM proposes for one paper's bounded text."""

    evidence: list[Locus] = Field(default_factory=list)


# --------------------------------------------------------------------------- IntrAgent


class SectionRanking(_Output):
    """IntrAgent App. E.1: section numbers, most promising first (the seed's <<<n>>> list)."""

    ranking: list[Annotated[int, Field(ge=1)]]
    justifications: list[str] = Field(default_factory=list)


class ReadingAction(_Output):
    """IntrAgent App. E.2.1: the next action of the reading loop."""

    action: Literal["GET_CHUNK", "GET_DETAIL", "EVALUATE", "TERMINATE"]
    reason: str = ""


class Detail(_Output):
    """IntrAgent App. E.2.3: details of one knowledge chunk relevant to the question."""

    found: bool
    details: str = ""
    chunks: list[str] = Field(
        default_factory=list, description="Identifiers of the passages the details come from."
    )


class Sufficiency(_Output):
    """IntrAgent App. E.2.2: whether the gathered details answer the question."""

    sufficient: bool
    missing: str = ""
    rationale: str = ""
