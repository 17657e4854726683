from __future__ import annotations

from littrace.read.abbreviations import Glossary, definitions


def test_short_forms_are_defined_by_the_words_whose_initials_they_print() -> None:
    defined = definitions(
        "We report the mean reciprocal rank (MRR) and Recall@100 (R@100) of large language "
        "models (LLMs) in Natural Language Processing (NLP)."
    )
    assert defined == {
        "MRR": "mean reciprocal rank",
        "R@100": "Recall@100",
        "LLMs": "large language models",
        "NLP": "Natural Language Processing",
    }


def test_a_short_form_set_equal_to_words_is_defined_by_them() -> None:
    # Paper Plain's Table 2 caption (dev8 x1_11): the interface variants its headers pair.
    caption = (
        "where i and j correspond to interface options — 𝑃𝑃= Paper Plain, 𝑄𝐴= Key Question "
        "Index and Answer Gists, 𝑆𝐷= Both Section Gists and Term Definitions, and 𝑃𝐷𝐹= PDF "
        "baseline. For example"
    )
    assert definitions(caption) == {
        "𝑃𝑃": "Paper Plain",
        "𝑄𝐴": "Key Question Index and Answer Gists",
        "𝑆𝐷": "Both Section Gists and Term Definitions",
        "𝑃𝐷𝐹": "PDF baseline",
    }
    assert Glossary(definitions(caption)).spell("𝑄𝐴−𝑃𝐷𝐹") == (
        "Key Question Index and Answer Gists−PDF baseline"
    )
    # Set equal to a number or an expression, a symbol is a setting, not a short form.
    assert definitions("with alpha = 0.5 and L = L_task + 0.5 L_align, k = number of runs") == {
        "k": "number of runs"
    }


def test_a_greek_letter_matches_the_initial_of_its_name() -> None:
    defined = definitions("Table 7: Fleiss kappa (F-κ), Randolph kappa (R-κ), and agreement.")
    assert defined == {"F-κ": "Fleiss kappa", "R-κ": "Randolph kappa"}


def test_citations_years_panels_and_unmatched_letters_define_nothing() -> None:
    text = (
        "as shown before (Smith et al., 2020) in 2019 (2019), see panel (a), the baseline "
        "model (XYZ) and the encoder (E)."
    )
    assert definitions(text) == {}


def test_a_definition_does_not_reach_back_over_the_end_of_a_sentence() -> None:
    # "Mean Rank." ends a sentence: its words cannot make the "MR" of the next one.
    assert definitions("We use the Mean Rank. Results (MR) follow.") == {}


def test_a_glossary_spells_out_every_short_form_a_label_holds() -> None:
    glossary = Glossary(
        {"QQP 50K": "Quora Question Pairs 50K split", "QQP": "Quora Question Pairs", "F-κ": "F"}
    )
    # The longest short form wins: "QQP 50K" is not "QQP" and then "50K".
    assert glossary.spell("Dataset: QQP 50K") == "Dataset: Quora Question Pairs 50K split"
    assert glossary.spell("QQP 140K") == "Quora Question Pairs 140K"
    # Only whole short forms: "MQQP" holds none.
    assert glossary.spell("MQQP") is None
    assert glossary.spelled_out(("BLEU", "QQP")) == ("BLEU", "QQP (Quora Question Pairs)")
    assert Glossary({}).spell("QQP") is None


def test_a_label_printing_a_cited_works_name_is_named_by_its_authors() -> None:
    from littrace.read.abbreviations import cited_names
    from littrace.read.units import align, asked_terms, table_cells

    # SPECTER's text: "The most relevant baseline is Citeomatic (Bhagavatula et al., 2018)";
    # its table prints "Citeomatic (2018)"; a question names the work by its authors.
    prose = "The most relevant baseline is Citeomatic (Bhagavatula et al., 2018), trained on X."
    assert cited_names(prose) == {"Citeomatic": "Bhagavatula"}
    assert cited_names("As shown (Smith et al., 2020) and in [3].") == {}
    grid = (("Model", "MAP"), ("Citeomatic (2018)", "86.3"), ("SGC (2019a)", "91.6"))
    wanted = asked_terms("What MAP does the model of Bhagavatula et al. (2018) get?")
    glossary = Glossary(cited_names(prose))
    best = max(table_cells(grid), key=lambda c: align(wanted, c, glossary=glossary).score)
    assert best.text == "86.3"
    assert align(wanted, best).row_score < align(wanted, best, glossary=glossary).row_score


def test_a_symbol_is_defined_by_the_words_printed_before_it() -> None:
    from littrace.read.units import align, asked_terms, table_cells

    # The strain sensor's Table 3 caption (arXiv 2022, dev7 w3_11): symbols are no
    # abbreviations, each is what the words before it describe.
    caption = (
        "Table 3: Summary of the implementations, i.e. the β-multiplier with resistor (β R), "
        "the full-transistor β-multipliers with positive (β₊) and negative (β₋) strain "
        "responses and the current subtraction implementation (β sub)."
    )
    assert definitions(caption) == {
        "β R": "resistor",
        "β₊": "positive",
        "β₋": "negative",
        "β sub": "current subtraction implementation",
    }
    grid = (
        ("Implementation", "β R", "β₊", "β₋"),
        ("Power Consumption (µW)", "28.6", "56.96", "60.02"),
    )
    wanted = asked_terms("What power does the β-multiplier with a negative strain response use?")
    glossary = Glossary(definitions(caption))
    best = max(table_cells(grid), key=lambda c: align(wanted, c, glossary=glossary).score)
    assert best.text == "60.02"
    # A word in parentheses is no symbol.
    assert definitions("the pooled output (mean) of the encoder") == {}
