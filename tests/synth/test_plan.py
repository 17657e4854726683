"""Metadata-only papers on topics re-aimed at real papers (the hard realqa pool's distractors)."""

from __future__ import annotations

import random

from littrace.synth.plan import plan_metadata_only, topic_like
from littrace.synth.vocabulary import TOPICS

SCIBERT_TITLE = "SciBERT: A Pretrained Language Model for Scientific Text"
SCIBERT_ABSTRACT = (
    "We release SciBERT, a pretrained language model based on BERT. We evaluate on ChemProt "
    "and SciERC, and release the code."
)


def test_a_topic_like_a_real_paper_takes_its_subject_and_the_names_it_uses() -> None:
    topic = topic_like(SCIBERT_TITLE, SCIBERT_ABSTRACT, TOPICS[0])
    assert topic.task == "pretrained language model for scientific text"
    assert topic.datasets == ("SciBERT", "BERT", "ChemProt", "SciERC")
    # Everything else is the base topic's; a paper naming fewer than two names borrows them.
    assert (topic.metric, topic.baselines) == (TOPICS[0].metric, TOPICS[0].baselines)
    plain = topic_like("Learning to rank", "We rank documents with gradient boosting.", TOPICS[1])
    assert plain.task == "learning to rank"
    assert plain.datasets == TOPICS[1].datasets[:2]


def test_metadata_only_papers_are_written_on_the_given_topics_with_one_id_per_number() -> None:
    topic = topic_like(SCIBERT_TITLE, SCIBERT_ABSTRACT, TOPICS[0])
    papers = plan_metadata_only(random.Random(3), [topic], range(40, 140))
    assert [int(p.paper_id.split("_")[1]) for p in papers] == list(range(40, 140))
    assert len({p.title.split(":")[0] for p in papers}) == 100  # method names are unique
    for paper in papers:
        assert paper.title.endswith("for Pretrained Language Model for Scientific Text")
        assert "a method for pretrained language model for scientific text" in paper.abstract
        named = [name for name in topic.datasets if name in paper.abstract]
        assert len(named) >= 2
    again = plan_metadata_only(random.Random(3), [topic], range(40, 140))
    assert again == papers
