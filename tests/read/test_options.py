"""Options cut into the claims they make."""

from __future__ import annotations

from littrace.read.options import option_claims


def test_an_option_cut_into_claims_at_semicolons_markers_and_conjoined_values() -> None:
    said = option_claims("(i) GloVe; (ii) Skip-gram on NYT")
    assert [(c.marker, c.text) for c in said] == [("(i)", "GloVe"), ("(ii)", "Skip-gram on NYT")]
    # Two values joined by "and" are two claims; what follows "so" is inferred, not printed;
    # the digits of a name ("Qwen3-4B") are no value of their own.
    said = option_claims("A samples at 0.6 and the Qwen3-4B runs use 0.7, so B is higher")
    assert [c.text for c in said] == ["A samples at 0.6", "the Qwen3-4B runs use 0.7"]
    assert [c.text for c in option_claims("Vicuna, at both 7B and 13B")] == [
        "Vicuna, at both 7B and 13B"
    ]


def test_values_set_apart_by_a_spaced_slash_are_a_claim_each() -> None:
    # dev3 r1_06: "8,192 / 16,384", a training length per paper.
    assert [c.text for c in option_claims("8,192 / 16,384")] == ["8,192", "16,384"]
    # Not a header's shorthand ("w/o").
    assert [c.text for c in option_claims("w/o 5 layers")] == ["w/o 5 layers"]
    # Names too, one per work in the order the question names the works (dev5 u1_13).
    said = option_claims("bert-base-wikipedia-sections-mean-tokens / paraphrase-mpnet-base-v2")
    assert [(c.text, c.per_work) for c in said] == [
        ("bert-base-wikipedia-sections-mean-tokens", True),
        ("paraphrase-mpnet-base-v2", True),
    ]
    assert not any(c.per_work for c in option_claims("(i) GloVe; (ii) Skip-gram"))
