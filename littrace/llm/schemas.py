"""Pydantic schemas of every LLM step's JSON output.

Each prompt in ``littrace/prompts`` asks for exactly one of these models, and
:meth:`littrace.llm.client.LlmClient.complete_json` validates the reply against it (and sends
its JSON Schema as ``response_format`` where the provider supports one).

Example:
    >>> from littrace.llm.schemas import Subqueries
    >>> Subqueries.model_validate_json('{"subqueries": ["[ACL 2023] sparse retrieval"]}')
    Subqueries(subqueries=['[ACL 2023] sparse retrieval'])
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from littrace.schema import SourceType

__all__ = [
    "Detail",
    "EvidenceItem",
    "PaperJudgement",
    "Plan",
    "ReadingAction",
    "SectionRanking",
    "Subqueries",
    "Sufficiency",
    "Synthesis",
    "TargetGroup",
    "Verification",
]

Modality = Literal["text", "table", "figure", "equation", "algorithm", "citation"]
Cell = str | int | float | bool | None


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
    """Lit3R reader stage 1: one candidate paper judged on its own chunks."""

    relevant: bool
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


class Synthesis(_Output):
    """Lit3R reader stage 2: the answer built from the accepted papers."""

    freeform: str | None = None
    multiple_choice: Annotated[str, Field(pattern=r"^[A-Z]$")] | None = None
    table_rows: list[dict[str, Cell]] | None = None
    papers: list[str] = Field(default_factory=list)
    evidence: list[EvidenceItem] = Field(default_factory=list)
    rationale: str = ""


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


class Sufficiency(_Output):
    """IntrAgent App. E.2.2: whether the gathered details answer the question."""

    sufficient: bool
    missing: str = ""
    rationale: str = ""
