"""Tests for littrace.read.text: the clause and sentence a question asks in."""

from __future__ import annotations

from littrace.read.text import (
    asking_clause,
    asking_sentence,
    contains_phrase,
    positive_forms,
    sentences,
    terms,
)


def test_the_asking_clause_is_the_one_its_question_word_opens() -> None:
    question = (
        "A paper adapts GPT2 to paraphrasing. In its ablation that swaps kNN retrieval for "
        "random retrieval, what iBLEU does the random-retrieval variant reach on ParaSCI ACL?"
    )
    assert asking_clause(question).startswith("what iBLEU does the random-retrieval")
    # A question word inside a clause ("the model which ...") opens nothing.
    assert asking_clause("Name the model which scores best.") == "Name the model which scores best."
    assert (
        asking_clause("Which model, trained longer, wins?") == "Which model, trained longer, wins?"
    )
    assert asking_sentence("A paper studies graphs. Which model wins?") == "Which model wins?"
    assert asking_sentence("") == ""
    # A preposition may lead the question word.
    assert asking_clause("On ChemProt, by how much does A beat B?") == "by how much does A beat B?"


def test_sentences_cut_at_line_breaks_not_after_citations() -> None:
    text = "As Chang et al. (2023) show, it helps. Fig. 2 agrees\nTable 3: Results."
    assert sentences(text) == [
        "As Chang et al. (2023) show, it helps.",
        "Fig. 2 agrees",
        "Table 3: Results.",
    ]


def test_a_bound_prefix_meets_its_word_with_or_without_its_hyphen() -> None:
    assert terms("pre-trained re-ranking") == terms("pretrained reranking")
    assert terms("skip-gram") == ["skip-gram"]


def test_a_footnote_mark_printed_onto_a_word_is_no_part_of_it() -> None:
    assert contains_phrase(
        "We use the slanted triangular scheduler10 of Howard.", "triangular scheduler"
    )
    assert terms("scheduler10") == terms("scheduler 10")
    # Names that print their number as part of them keep it.
    assert terms("ResNet50 Qwen3 GPT4") == ["resnet50", "qwen3", "gpt4"]


def test_a_sign_closing_a_name_is_part_of_it_but_a_sign_joining_names_is_not() -> None:
    # "β₊" and "β₋" (subscript signs) are the "β+" and "β−" designs an option names.
    assert terms("β₊") == terms("β+,") == ["β+"]
    assert terms("(β−)") == ["β−"] != terms("β+")
    assert terms("Dense+Sparse") == terms("Dense+ Sparse") == ["dens", "spars"]


def test_a_words_final_e_is_stemmed_like_its_inflections() -> None:
    assert terms("curate tables scored") == terms("curated table score")
    # Short words keep theirs.
    assert terms("use rate") == ["use", "rate"]


def test_a_subscript_typed_the_tex_way_is_the_subscript_the_pdf_prints() -> None:
    # dev4 s1_12: the question types "π_l" for the "πₗ" a table header prints.
    assert terms("π_l") == terms("π_{l}") == terms("πₗ") == ["πl"]
    assert terms("E_0 of x_i") == terms("E₀ of xᵢ")
    # Names joined by an underscore are no symbol with a subscript.
    assert terms("max_len a_b_c") == terms("max len a b c")


def test_a_plural_of_a_word_in_ing_meets_its_singular() -> None:
    assert terms("edge embeddings settings") == terms("edge embedding setting")


def test_a_comparative_meets_the_positive_form_a_caption_prints() -> None:
    printed = set(terms("Adapting GPT2 Large and GPT2 Medium; a big model"))
    assert positive_forms(terms("the larger, bigger GPT2 model"), printed) == {"larg", "big"}
    # Words of their own in -er, and comparatives whose positive is not printed, are none.
    assert positive_forms(terms("the paper with a smaller model"), printed) == set()
