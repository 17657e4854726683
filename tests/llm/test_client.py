"""LlmClient against a scripted local litellm provider (``scripted/<model>``), and once
against a local OpenAI-compatible HTTP server: no network beyond the loopback."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import litellm
import pytest
from litellm.exceptions import (
    APIConnectionError,
    AuthenticationError,
    BadRequestError,
    RateLimitError,
    ServiceUnavailableError,
    Timeout,
)

from littrace.config import LlmSettings, load_settings
from littrace.deadline import Deadline
from littrace.llm import CallCache, LlmClient, LlmError
from littrace.llm.replies import Subqueries, Verification
from tests.scripted_llm import ScriptedLlm

VALID = '{"subqueries": ["[ACL 2023] dense retrieval", "BM25 baseline"]}'
MESSAGES = [
    {"role": "system", "content": "You are a retrieval assistant."},
    {"role": "user", "content": "Decompose the question. Reply with JSON."},
]


@pytest.fixture
def provider(scripted: ScriptedLlm) -> ScriptedLlm:
    """The scripted provider, each reply counting 11 prompt and 7 completion tokens."""
    scripted.usage = (11, 7)
    return scripted


class Sleeps:
    def __init__(self) -> None:
        self.delays: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def make_client(tmp_path: Path, sleeps: Sleeps | None = None, **overrides: Any) -> LlmClient:
    values: dict[str, Any] = {"backend": "litellm", "model": "scripted/test", "max_retries": 2}
    values.update(overrides)
    return LlmClient(
        LlmSettings(**values),
        tmp_path / "llm_cache",
        backoff_base_s=0.01,
        backoff_max_s=0.05,
        sleep=sleeps or Sleeps(),
    )


def no_fallback() -> Subqueries:
    raise AssertionError("fallback must not be used")


def question_fallback() -> Subqueries:
    return Subqueries(subqueries=["the question itself"])


def test_valid_json_is_parsed_and_recorded(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [VALID]
    result = make_client(tmp_path, temperature=0.0, max_tokens=321, timeout_s=7.5).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )

    assert result.value == Subqueries(subqueries=["[ACL 2023] dense retrieval", "BM25 baseline"])
    record = result.record
    assert (record.step, record.model, record.attempts) == ("decompose", "scripted/test", 1)
    assert (record.prompt_tokens, record.completion_tokens) == (11, 7)
    assert not (record.cache_hit or record.repaired or record.fallback or record.reason)
    assert record.request_key and record.latency_s >= 0
    (call,) = provider.calls
    assert call.messages == MESSAGES
    assert call.timeout == 7.5  # the per-call deadline reaches the provider
    assert call.params["temperature"] == 0.0 and call.params["max_tokens"] == 321
    assert call.params["response_format"] == {"type": "json_object"}  # no schema support known


def test_schema_goes_out_as_response_format_when_supported(
    tmp_path: Path, provider: ScriptedLlm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(litellm, "supports_response_schema", lambda model, *a, **k: True)
    provider.script = ['{"evidence_papers": ["p1"], "sufficient": true}']
    result = make_client(tmp_path).complete_json(
        "verify", MESSAGES, Verification, fallback=lambda: Verification(sufficient=False)
    )

    assert result.value == Verification(evidence_papers=["p1"], sufficient=True, missing="")
    response_format = provider.calls[0].params["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["name"] == "Verification"
    assert response_format["json_schema"]["schema"] == Verification.model_json_schema()


def test_json_mode_off_sends_no_response_format(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [VALID]
    make_client(tmp_path, json_mode=False).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )
    assert "response_format" not in provider.calls[0].params


def test_fenced_json_is_accepted(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [f"```json\n{VALID}\n```\n"]
    result = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )
    assert result.value.subqueries[1] == "BM25 baseline"
    assert not result.record.repaired and result.record.attempts == 1


def test_invalid_json_is_repaired_once_quoting_the_error(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script = ["Sure! Here are the subqueries: dense retrieval", VALID]
    result = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )

    assert result.value.subqueries[0] == "[ACL 2023] dense retrieval"
    assert result.record.repaired and not result.record.fallback
    assert result.record.attempts == 2
    assert (result.record.prompt_tokens, result.record.completion_tokens) == (22, 14)
    repair = provider.calls[1].messages
    assert repair[: len(MESSAGES)] == MESSAGES
    assert repair[-2] == {
        "role": "assistant",
        "content": "Sure! Here are the subqueries: dense retrieval",
    }
    assert repair[-1]["role"] == "user"
    assert "Invalid JSON" in repair[-1]["content"]  # pydantic's message for the bad reply
    assert '"subqueries"' in repair[-1]["content"]  # the schema to conform to


def test_schema_mismatch_repair_names_the_field(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = ['{"evidence_papers": [], "sufficient": "perhaps"}', '{"sufficient": false}']
    result = make_client(tmp_path).complete_json(
        "verify", MESSAGES, Verification, fallback=lambda: Verification(sufficient=False)
    )
    assert result.record.repaired
    assert (
        "sufficient: Input should be a valid boolean" in provider.calls[1].messages[-1]["content"]
    )


def test_a_failing_repair_request_counts_its_own_attempts(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script = [
        "no json here",
        ServiceUnavailableError(message="overloaded", llm_provider="scripted", model="t"),
    ]
    result = make_client(tmp_path, max_retries=1).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=question_fallback
    )
    assert result.fallback and result.record.attempts == 3
    assert result.record.reason is not None
    assert result.record.reason.endswith("(after 2 attempts)")


def test_hopeless_replies_fall_back_with_the_reason(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = ["no json here", '{"queries": ["wrong key"]}']
    result = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=question_fallback
    )

    assert result.fallback and result.record.fallback
    assert result.value == question_fallback()
    assert result.record.reason == "invalid output after repair: subqueries: Field required"
    assert result.record.attempts == 2 and len(provider.calls) == 2  # exactly one repair


def test_transient_errors_are_retried_with_backoff(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [
        RateLimitError(message="slow down", llm_provider="scripted", model="test"),
        Timeout(message="took too long", model="test", llm_provider="scripted"),
        VALID,
    ]
    sleeps = Sleeps()
    result = make_client(tmp_path, sleeps).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )

    assert not result.fallback and result.record.attempts == 3
    # Exponential with jitter: attempt n waits 50-100 % of min(0.05, 0.01 * 2**n).
    assert len(sleeps.delays) == 2
    assert 0.005 <= sleeps.delays[0] <= 0.01 <= sleeps.delays[1] <= 0.02


def test_backoff_is_capped(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [APIConnectionError(message="reset", llm_provider="s", model="t")]
    sleeps = Sleeps()
    make_client(tmp_path, sleeps, max_retries=6).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=question_fallback
    )
    assert len(sleeps.delays) == 6 and max(sleeps.delays) <= 0.05


def test_exhausted_retries_fall_back(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [
        ServiceUnavailableError(message="overloaded", llm_provider="scripted", model="t")
    ]
    result = make_client(tmp_path, max_retries=1).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=question_fallback
    )

    assert result.fallback and result.value == question_fallback()
    assert result.record.attempts == 2 and len(provider.calls) == 2
    assert result.record.reason is not None
    assert result.record.reason.startswith("ServiceUnavailableError: ")
    assert result.record.reason.endswith("(after 2 attempts)")
    assert not list((tmp_path / "llm_cache").rglob("*.json"))  # failures are not cached


def test_a_bad_request_is_not_retried(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [BadRequestError(message="too long", model="t", llm_provider="s")]
    result = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=question_fallback
    )
    assert result.fallback and len(provider.calls) == 1
    assert result.record.reason is not None and "BadRequestError" in result.record.reason


def test_an_authentication_error_stops_the_run(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [AuthenticationError(message="bad key", llm_provider="s", model="t")]
    with pytest.raises(LlmError, match="AuthenticationError"):
        make_client(tmp_path).complete_json(
            "decompose", MESSAGES, Subqueries, fallback=question_fallback
        )
    assert len(provider.calls) == 1


def test_cache_makes_a_rerun_free_across_clients(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [VALID]
    first = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )
    second = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )

    assert len(provider.calls) == 1
    assert second.value == first.value
    assert second.record.cache_hit and not first.record.cache_hit
    assert second.record.attempts == 0
    assert (second.record.prompt_tokens, second.record.cost_usd) == (0, 0.0)
    assert second.record.request_key == first.record.request_key
    cached = CallCache(tmp_path / "llm_cache").get(first.record.request_key or "")
    assert cached is not None and cached.content == VALID


def test_cache_replays_a_repair_without_calls(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = ["not json", VALID]
    make_client(tmp_path).complete_json("decompose", MESSAGES, Subqueries, fallback=no_fallback)
    rerun = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )
    assert len(provider.calls) == 2
    assert rerun.record.cache_hit and rerun.record.repaired and rerun.record.attempts == 0


def test_an_invalid_reply_is_not_cached_so_a_rerun_asks_again(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script = ["not json", "still not json", VALID]
    failed = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=question_fallback
    )
    assert failed.fallback and len(provider.calls) == 2
    assert not list((tmp_path / "llm_cache").rglob("*.json"))

    rerun = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )
    assert len(provider.calls) == 3 and not rerun.fallback
    assert rerun.value.subqueries == ["[ACL 2023] dense retrieval", "BM25 baseline"]


def test_refresh_asks_again_and_overwrites_the_cached_reply(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    newer = '{"subqueries": ["dense retrieval"]}'
    provider.script = [VALID, newer]
    first = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )
    refreshed = make_client(tmp_path, cache_mode="refresh").complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )
    assert len(provider.calls) == 2 and not refreshed.record.cache_hit
    assert refreshed.value.subqueries == ["dense retrieval"]

    replayed = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )
    assert len(provider.calls) == 2 and replayed.record.cache_hit
    assert replayed.value == refreshed.value != first.value


def test_cache_key_covers_model_schema_and_parameters(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script = [VALID]
    make_client(tmp_path).complete_json("a", MESSAGES, Subqueries, fallback=no_fallback)
    make_client(tmp_path, temperature=0.7).complete_json(
        "a", MESSAGES, Subqueries, fallback=no_fallback
    )
    make_client(tmp_path, model="scripted/other").complete_json(
        "a", MESSAGES, Subqueries, fallback=no_fallback
    )
    make_client(tmp_path).complete_json(
        "a", MESSAGES, Renamed, fallback=lambda: Renamed(subqueries=[])
    )
    # Neither the step name nor the timeout shapes the reply, so they share the first entry.
    make_client(tmp_path, timeout_s=3).complete_json(
        "b", MESSAGES, Subqueries, fallback=no_fallback
    )
    assert len(provider.calls) == 4


class Renamed(Subqueries):
    """Same fields, another schema name: a different request."""


def test_cache_disabled_always_calls(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [VALID]
    client = make_client(tmp_path, cache=False)
    for _ in range(2):
        client.complete_json("decompose", MESSAGES, Subqueries, fallback=no_fallback)
    assert len(provider.calls) == 2
    assert not (tmp_path / "llm_cache").exists()


def test_cost_and_tokens_are_recorded(tmp_path: Path, provider: ScriptedLlm) -> None:
    litellm.register_model(
        {
            "scripted/priced": {
                "input_cost_per_token": 1e-6,
                "output_cost_per_token": 2e-6,
                "litellm_provider": "scripted",
                "mode": "chat",
            }
        }
    )
    provider.script = [VALID]
    priced = make_client(tmp_path, model="scripted/priced").complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )
    unpriced = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )

    assert priced.record.cost_usd == pytest.approx(11 * 1e-6 + 7 * 2e-6)
    assert (priced.record.prompt_tokens, priced.record.completion_tokens) == (11, 7)
    assert unpriced.record.cost_usd == 0.0  # unknown price: zero, not an error
    assert unpriced.record.prompt_tokens == 11


def test_concurrency_limit_is_shared_by_threads(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [VALID]
    provider.gate = threading.Barrier(2)
    client = make_client(tmp_path, concurrency=2, cache=False)
    errors: list[BaseException] = []

    def ask(index: int) -> None:
        messages = [{"role": "user", "content": f"question {index}; reply with JSON"}]
        try:
            result = client.complete_json("decompose", messages, Subqueries, fallback=no_fallback)
            assert not result.fallback
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=ask, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert not errors
    assert len(provider.calls) == 8
    assert provider.max_active == 2


def test_async_variant(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [VALID]
    provider.gate = threading.Barrier(3)
    client = make_client(tmp_path, concurrency=3, cache=False)

    async def ask_all() -> list[bool]:
        results = await asyncio.gather(
            *(
                client.acomplete_json(
                    "decompose",
                    [{"role": "user", "content": f"question {index}; JSON"}],
                    Subqueries,
                    fallback=no_fallback,
                )
                for index in range(6)
            )
        )
        return [result.fallback for result in results]

    assert asyncio.run(ask_all()) == [False] * 6
    assert provider.max_active == 3


def test_backend_none_never_touches_litellm(
    tmp_path: Path, provider: ScriptedLlm, monkeypatch: pytest.MonkeyPatch
) -> None:
    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("litellm must not be called")

    monkeypatch.setattr(litellm, "completion", forbidden)
    monkeypatch.setattr(litellm, "supports_response_schema", forbidden)
    client = LlmClient(LlmSettings(backend="none", api_key_env="UNSET_KEY"), tmp_path / "c")
    result = client.complete_json("decompose", MESSAGES, Subqueries, fallback=question_fallback)

    assert result.value == question_fallback()
    assert result.record.fallback and result.record.reason == "backend none"
    assert result.record.attempts == 0 and result.record.request_key is None
    assert not provider.calls and not (tmp_path / "c").exists()


def test_api_key_comes_from_the_named_variable(
    tmp_path: Path, provider: ScriptedLlm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LITTRACE_TEST_KEY", raising=False)
    with pytest.raises(LlmError, match="LITTRACE_TEST_KEY"):
        make_client(tmp_path, api_key_env="LITTRACE_TEST_KEY")

    monkeypatch.setenv("LITTRACE_TEST_KEY", "sk-test")
    provider.script = [VALID]
    make_client(tmp_path, api_key_env="LITTRACE_TEST_KEY").complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )
    assert provider.calls[0].api_key == "sk-test"


def test_from_settings_puts_the_cache_under_the_artifact_root(tmp_path: Path) -> None:
    settings = load_settings(overrides={"runtime.artifact_root": str(tmp_path)}, environ={})
    client = LlmClient.from_settings(settings)
    assert client.cache is not None
    assert client.cache.directory == tmp_path / "llm_cache"


def test_an_empty_reply_is_repaired(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = ["", VALID]
    result = make_client(tmp_path).complete_json(
        "decompose", MESSAGES, Subqueries, fallback=no_fallback
    )
    assert result.record.repaired
    assert "the reply was empty" in provider.calls[1].messages[-1]["content"]


class Clock:
    """A hand-driven clock for deadlines."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class ClockSleeps(Sleeps):
    """Backoff waits that move the deadline's clock."""

    def __init__(self, clock: Clock) -> None:
        super().__init__()
        self.clock = clock

    def __call__(self, seconds: float) -> None:
        super().__call__(seconds)
        self.clock.now += seconds


def test_a_deadline_shortens_the_provider_timeout(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [VALID]
    clock = Clock()
    deadline = Deadline(5.0, clock)
    clock.now = 2.0
    with deadline.active():  # 3 s left of 5
        result = make_client(tmp_path, timeout_s=120.0).complete_json(
            "decompose", MESSAGES, Subqueries, fallback=no_fallback
        )
    assert not result.fallback
    assert provider.calls[0].timeout == 3.0  # min(120, time left)
    with Deadline(500.0, clock).active():
        make_client(tmp_path, timeout_s=120.0, cache=False).complete_json(
            "decompose", MESSAGES, Subqueries, fallback=no_fallback
        )
    assert provider.calls[1].timeout == 120.0


def test_no_retry_starts_after_the_deadline(tmp_path: Path, provider: ScriptedLlm) -> None:
    clock = Clock()

    def times_out_at_the_deadline() -> str:
        clock.now = 10.0  # the shortened timeout ran out
        raise Timeout(message="took too long", model="test", llm_provider="scripted")

    provider.script = [times_out_at_the_deadline, VALID]
    sleeps = Sleeps()
    deadline = Deadline(10.0, clock)
    with deadline.active():
        result = make_client(tmp_path, sleeps, max_retries=3).complete_json(
            "decompose", MESSAGES, Subqueries, fallback=question_fallback
        )
    assert result.fallback and result.value == question_fallback()
    assert result.record.reason is not None
    assert result.record.reason.startswith("deadline: the question's 10 s passed (Timeout: ")
    assert len(provider.calls) == result.record.attempts == 1 and not sleeps.delays
    assert deadline.llm_calls_cut == 1


def test_a_backoff_wait_ends_at_the_deadline(tmp_path: Path, provider: ScriptedLlm) -> None:
    provider.script = [RateLimitError(message="slow down", llm_provider="scripted", model="t")]
    clock = Clock()
    sleeps = ClockSleeps(clock)
    deadline = Deadline(10.0, clock)
    clock.now = 9.996  # 4 ms left; the first backoff wait is 5-10 ms
    with deadline.active():
        result = make_client(tmp_path, sleeps).complete_json(
            "decompose", MESSAGES, Subqueries, fallback=question_fallback
        )
    assert sleeps.delays == [pytest.approx(0.004)]
    assert len(provider.calls) == 1 and result.record.attempts == 1
    assert result.record.reason == "deadline: the question's 10 s passed"


def test_after_the_deadline_only_cached_replies_are_used(
    tmp_path: Path, provider: ScriptedLlm
) -> None:
    provider.script = [VALID]
    make_client(tmp_path).complete_json("decompose", MESSAGES, Subqueries, fallback=no_fallback)
    clock = Clock()
    deadline = Deadline(1.0, clock)
    clock.now = 1.0
    other = [{"role": "user", "content": "Another question. Reply with JSON."}]
    with deadline.active():
        cached = make_client(tmp_path).complete_json(
            "decompose", MESSAGES, Subqueries, fallback=no_fallback
        )
        refused = make_client(tmp_path).complete_json(
            "decompose", other, Subqueries, fallback=question_fallback
        )
    assert cached.record.cache_hit and not cached.fallback
    assert refused.fallback and refused.record.reason == "deadline: the question's 1 s passed"
    assert refused.record.attempts == 0 and len(provider.calls) == 1  # nothing sent
    assert deadline.llm_calls_cut == 1


def test_waiting_for_a_slot_ends_at_the_deadline(tmp_path: Path, provider: ScriptedLlm) -> None:
    """One slot, held by another question's call: this question gives up at its deadline."""
    release = threading.Event()

    def held() -> str:
        release.wait(timeout=30)
        return VALID

    provider.script = [held]
    client = make_client(tmp_path, concurrency=1, cache=False)
    holder = threading.Thread(
        target=client.complete_json,
        args=("decompose", MESSAGES, Subqueries),
        kwargs={"fallback": no_fallback},
    )
    holder.start()
    while not provider.calls:  # the holder is in the provider, holding the only slot
        time.sleep(0.01)
    started = time.monotonic()
    with Deadline(0.2).active():
        result = client.complete_json("decompose", MESSAGES, Subqueries, fallback=question_fallback)
    waited = time.monotonic() - started
    release.set()
    holder.join(timeout=30)
    assert result.fallback and result.record.reason == "deadline: the question's 0.2 s passed"
    assert len(provider.calls) == 1 and waited < 5.0


@pytest.fixture
def local_server() -> Iterator[tuple[str, list[str]]]:
    """A local OpenAI-compatible chat server: its ``/v1`` base URL and the replies it gives,
    in order (the last one repeats), under a model name no price map knows."""
    replies: list[str] = []
    served: list[int] = []

    class ChatCompletions(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            served.append(1)
            body = json.dumps(
                {
                    "id": f"chatcmpl-{len(served)}",
                    "object": "chat.completion",
                    "created": 0,
                    "model": "local-model-7b",
                    "choices": [
                        {
                            "index": 0,
                            "message": {
                                "role": "assistant",
                                "content": replies[min(len(served), len(replies)) - 1],
                            },
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {"prompt_tokens": 9, "completion_tokens": 4, "total_tokens": 13},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            """No access log on stderr: the test watches it."""

    server = ThreadingHTTPServer(("127.0.0.1", 0), ChatCompletions)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/v1", replies
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


def test_a_local_model_without_a_price_is_called_without_a_word_on_the_console(
    tmp_path: Path,
    local_server: tuple[str, list[str]],
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Through litellm's real OpenAI path to a local server, as ``--profile api`` with a local
    model runs: a good reply, then prose that falls back. litellm has no price for the model,
    and neither that nor the fallback puts anything on stdout or stderr."""
    base_url, replies = local_server
    replies[:] = [VALID, "Dense retrieval and BM25 are the two things to look up."]
    monkeypatch.setenv("LOCAL_LLM_KEY", "local")
    client = make_client(
        tmp_path,
        model="openai/local-model-7b",
        api_base=base_url,
        api_key_env="LOCAL_LLM_KEY",
        cache=False,
    )
    capfd.readouterr()

    answered = client.complete_json("decompose", MESSAGES, Subqueries, fallback=no_fallback)
    fell_back = client.complete_json("decompose", MESSAGES, Subqueries, fallback=question_fallback)

    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    assert answered.value.subqueries[1] == "BM25 baseline" and not answered.fallback
    assert answered.record.cost_usd == 0.0 and answered.record.prompt_tokens == 9
    assert fell_back.fallback and fell_back.record.attempts == 2
    assert fell_back.record.reason is not None
    assert fell_back.record.reason.startswith("invalid output after repair")
