"""The LLM client every LLM step uses: JSON outputs, retries, repair, fallback, cache, costs.

:class:`LlmClient` sends chat messages (usually from :func:`littrace.llm.prompts.render`) to
any litellm model — a hosted provider, or a local OpenAI-compatible server via ``api_base`` —
and returns a validated pydantic object with a :class:`CallRecord` for the caller's trace.

Per call: the schema goes out as ``response_format`` where litellm says the model supports
one (else plain JSON mode), and the reply is parsed strictly (``schema.model_validate_json``
after stripping a Markdown fence). Transport errors, timeouts and rate limits are retried with
exponential backoff and jitter (tenacity, :class:`littrace.retry.Backoff`), ``max_retries`` times. An invalid reply gets ONE repair request
quoting the validation error; if that fails too, or the provider keeps failing, the caller's
``fallback()`` result is returned with ``fallback=True`` and the reason, so a step degrades
visibly instead of aborting (TRACE §3.1). With ``backend: none`` litellm is never imported.

Inside a question's deadline (:func:`littrace.deadline.current_deadline`, set by the answer
pipeline) no request outlives it: each one's timeout is ``min(timeout_s, time left)``, backoff
waits are cut to the time left, and once it has passed no request or retry starts; the call
falls back with a reason starting ``deadline:`` (cached replies are still used: they are free).

Replies are cached on disk (:mod:`littrace.llm.cache`), keyed by the full request, once
they parsed: an invalid reply is kept only with the repair reply that fixed it, so a rerun
replays a good exchange, repair round included, at no cost, and asks again where the model
failed (at temperature 0 a stored bad reply would otherwise come back forever).
``llm.cache_mode: refresh`` asks every request again and overwrites its entry.

Example:
    >>> import tempfile
    >>> from pathlib import Path
    >>> from littrace.config import LlmSettings
    >>> from littrace.llm.replies import Subqueries
    >>> client = LlmClient(LlmSettings(backend="none"), Path(tempfile.mkdtemp()))
    >>> result = client.complete_json(
    ...     "decompose", [{"role": "user", "content": "..."}], Subqueries,
    ...     fallback=lambda: Subqueries(subqueries=["the question itself"]))
    >>> result.value.subqueries, result.record.fallback, result.record.reason
    (['the question itself'], True, 'backend none')
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, Field, ValidationError
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from littrace.config import LlmSettings, Settings
from littrace.deadline import Deadline, current_deadline
from littrace.llm.cache import CachedReply, CallCache, request_key
from littrace.llm.prompts import render
from littrace.retry import Backoff

if TYPE_CHECKING:
    from types import ModuleType

__all__ = ["CallRecord", "LlmClient", "LlmError", "LlmResult", "Message"]

Message = dict[str, str]
T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"^```[a-zA-Z0-9_-]*\s*\n?(.*?)\n?\s*```$", re.DOTALL)
_ERROR_CHARS = 300  # enough to identify a provider error in a trace without dumping a page


class LlmError(RuntimeError):
    """A configuration problem no retry or fallback can fix (missing key, unknown model)."""


class CallRecord(BaseModel):
    """What one :meth:`LlmClient.complete_json` call cost and how it went, for the trace.

    Tokens and cost count provider calls made by this call only: cached replies cost nothing.
    """

    step: str = Field(description="The caller's step name, e.g. 'decompose' or 'verify'.")
    model: str | None = Field(description="The litellm model string.")
    request_key: str | None = Field(
        default=None, description="Cache key of the first request; None without a request."
    )
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = Field(default=0.0, description="litellm's price; 0 when unknown.")
    latency_s: float = Field(default=0.0, description="Wall time, backoff waits included.")
    attempts: int = Field(
        default=0, description="Provider requests sent, failed ones included; 0 if all cached."
    )
    cache_hit: bool = Field(default=False, description="Every reply came from the cache.")
    repaired: bool = Field(default=False, description="The repair request gave the value.")
    fallback: bool = Field(default=False, description="The value is the caller's fallback.")
    reason: str | None = Field(default=None, description="Why the fallback was used.")


@dataclass(frozen=True)
class LlmResult(Generic[T]):
    """A step's output (from the model or the fallback) and its :class:`CallRecord`."""

    value: T
    record: CallRecord

    @property
    def fallback(self) -> bool:
        return self.record.fallback


@dataclass(frozen=True)
class _Reply:
    """One reply, its request's cache key, and whether the provider just gave it."""

    key: str
    reply: CachedReply
    fresh: bool

    @property
    def content(self) -> str:
        return self.reply.content


class _Unusable(Exception):
    """The provider could not give a reply: retries exhausted or a non-retryable refusal."""


@dataclass
class _Tally:
    attempts: int = 0
    provider_calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0


class LlmClient:
    """A thread-safe client shared by all steps of a run; see the module docstring.

    ``backoff_base_s``/``backoff_max_s`` shape the retry delays (:class:`littrace.retry.Backoff`:
    attempt n waits a random 50–100 % of ``min(max, base * 2**n)``); ``sleep`` and ``rng`` are
    injectable for tests.
    """

    def __init__(
        self,
        settings: LlmSettings,
        cache_dir: Path,
        *,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.settings = settings
        self.cache = CallCache(cache_dir) if settings.cache else None
        self._backoff = Backoff(backoff_base_s, backoff_max_s, rng)
        self._sleep = sleep
        # Bounds calls in flight across every thread using this client (and acomplete_json,
        # which runs on threads); held only around the provider call, never while sleeping.
        self._slots = threading.BoundedSemaphore(settings.concurrency)
        self._api_key: str | None = None
        if settings.backend == "litellm" and settings.api_key_env:
            self._api_key = os.environ.get(settings.api_key_env)
            if not self._api_key:
                raise LlmError(
                    f"llm.api_key_env: environment variable {settings.api_key_env} is unset"
                )
        self._schema_support: bool | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> LlmClient:
        """A client whose cache folder is resolved against ``runtime.artifact_root``."""
        cache_dir = settings.runtime.artifact_root / settings.llm.cache_dir
        return cls(settings.llm, cache_dir)

    # ------------------------------------------------------------------ public API

    def complete_json(
        self,
        step: str,
        messages: list[Message],
        schema: type[T],
        *,
        fallback: Callable[[], T],
    ) -> LlmResult[T]:
        """Ask for a ``schema`` object; never raises for bad replies or provider failures.

        Raises :class:`LlmError` only for configuration errors (authentication, unknown model).
        """
        started = time.perf_counter()
        if self.settings.backend == "none":
            return self._finish(step, started, _Tally(), None, fallback(), reason="backend none")

        tally = _Tally()
        key = request_key(self._request(messages, schema))
        try:
            reply = self._ask(messages, schema, tally)
            try:
                value = _parse(reply.content, schema)
            except ValueError as first:
                # One repair round: show the model its reply and what was wrong with it.
                repair = render("repair", error=_describe(first), schema=_schema_text(schema))
                followup = [*messages, {"role": "assistant", "content": reply.content}, *repair]
                second_reply = self._ask(followup, schema, tally)
                try:
                    value = _parse(second_reply.content, schema)
                except ValueError as second:
                    reason = f"invalid output after repair: {_describe(second)}"
                    return self._finish(step, started, tally, key, fallback(), reason=reason)
                self._store(reply, second_reply)
                return self._finish(step, started, tally, key, value, repaired=True)
            self._store(reply)
            return self._finish(step, started, tally, key, value)
        except _Unusable as exc:
            return self._finish(step, started, tally, key, fallback(), reason=str(exc))

    async def acomplete_json(
        self,
        step: str,
        messages: list[Message],
        schema: type[T],
        *,
        fallback: Callable[[], T],
    ) -> LlmResult[T]:
        """:meth:`complete_json` on a worker thread, sharing the client's concurrency limit."""
        return await asyncio.to_thread(
            self.complete_json, step, messages, schema, fallback=fallback
        )

    # ------------------------------------------------------------------ internals

    def _request(self, messages: list[Message], schema: type[BaseModel]) -> dict[str, Any]:
        """Everything that shapes the reply, hence the cache key (no key, no timeout)."""
        settings = self.settings
        request: dict[str, Any] = {
            "model": settings.model,
            "api_base": settings.api_base,
            "messages": messages,
            "temperature": settings.temperature,
            "max_tokens": settings.max_tokens,
            "schema": {"name": schema.__name__, "json_schema": schema.model_json_schema()},
        }
        if settings.json_mode:
            request["response_format"] = self._response_format(schema)
        return request

    def _response_format(self, schema: type[BaseModel]) -> dict[str, Any]:
        if self._schema_support is None:
            litellm = _litellm()
            self._schema_support = bool(litellm.supports_response_schema(str(self.settings.model)))
        if not self._schema_support:
            return {"type": "json_object"}
        # strict=False: pydantic schemas with defaults and free-form dicts break strict mode.
        return {
            "type": "json_schema",
            "json_schema": {
                "name": schema.__name__,
                "schema": schema.model_json_schema(),
                "strict": False,
            },
        }

    def _ask(self, messages: list[Message], schema: type[BaseModel], tally: _Tally) -> _Reply:
        """One reply for ``messages``: from the cache (unless refreshing), or from the
        provider with retries."""
        request = self._request(messages, schema)
        key = request_key(request)
        if self.cache is not None and self.settings.cache_mode == "use":
            cached = self.cache.get(key)
            if cached is not None:
                tally.cache_hits += 1
                return _Reply(key, cached, fresh=False)

        litellm = _litellm()
        import openai  # installed with litellm, and already imported by it

        retryable = (
            litellm.Timeout,
            litellm.RateLimitError,
            litellm.APIConnectionError,
            litellm.ServiceUnavailableError,
            litellm.InternalServerError,
        )
        fatal = (litellm.AuthenticationError, litellm.PermissionDeniedError, litellm.NotFoundError)
        arguments = {key: value for key, value in request.items() if key != "schema"}
        deadline = current_deadline()

        def attempt() -> Any:
            try:
                with self._slot(deadline) as timeout_s:
                    tally.attempts += 1
                    return litellm.completion(
                        **arguments,
                        api_key=self._api_key,
                        timeout=timeout_s,
                        num_retries=0,  # retries are ours, so they are counted and backed off
                        drop_params=True,  # a provider without JSON mode still answers
                    )
            except fatal as exc:
                raise LlmError(f"{self.settings.model}: {_error_text(exc)}") from exc
            except retryable as exc:
                if deadline is not None and deadline.expired():
                    # Most likely the shortened timeout itself: no retry would be allowed.
                    deadline.cut_llm_call()
                    raise _Unusable(_deadline_reason(deadline, exc)) from exc
                raise
            except openai.APIError as exc:
                # Every litellm error derives from it; the rest (a bad request, a context
                # overflow, a content filter) will not pass on a retry.
                raise _Unusable(_error_text(exc)) from exc

        def wait(state: RetryCallState) -> float:
            delay = self._backoff(state)
            return delay if deadline is None else deadline.bound(delay)

        retrying = Retrying(
            retry=retry_if_exception_type(retryable),
            stop=stop_after_attempt(self.settings.max_retries + 1),
            wait=wait,
            sleep=self._sleep,
            reraise=True,
        )
        try:
            response = retrying(attempt)
        except retryable as exc:
            # This request's attempts (the tally counts a repair request's too).
            attempts = retrying.statistics["attempt_number"]
            raise _Unusable(f"{_error_text(exc)} (after {attempts} attempts)") from exc
        reply = self._reply(response)
        tally.provider_calls += 1
        tally.prompt_tokens += reply.prompt_tokens
        tally.completion_tokens += reply.completion_tokens
        tally.cost_usd += reply.cost_usd
        return _Reply(key, reply, fresh=True)

    def _store(self, *replies: _Reply) -> None:
        """Cache the provider's replies of an exchange that gave a value."""
        if self.cache is None:
            return
        for reply in replies:
            if reply.fresh:
                self.cache.put(reply.key, reply.reply)

    @contextmanager
    def _slot(self, deadline: Deadline | None) -> Iterator[float]:
        """A concurrency slot and the provider timeout to use in it: ``llm.timeout_s``,
        shortened to the time the question's ``deadline`` has left. Once the deadline has
        passed (before or while waiting for a slot) it raises :class:`_Unusable` and nothing
        is sent, so the caller's model-free fallback answers instead."""
        if deadline is None:
            with self._slots:
                yield self.settings.timeout_s
            return
        acquired = self._slots.acquire(timeout=deadline.remaining())
        try:
            left = deadline.remaining()
            if not acquired or left <= 0:
                deadline.cut_llm_call()
                raise _Unusable(_deadline_reason(deadline))
            yield min(self.settings.timeout_s, left)
        finally:
            if acquired:
                self._slots.release()

    def _reply(self, response: Any) -> CachedReply:
        litellm = _litellm()
        choices = getattr(response, "choices", None) or []
        message = getattr(choices[0], "message", None) if choices else None
        content = getattr(message, "content", None) or ""
        usage = getattr(response, "usage", None)
        try:
            cost = float(
                litellm.completion_cost(completion_response=response, model=self.settings.model)
            )
        except Exception:  # litellm raises for models missing from its price map
            cost = 0.0
        return CachedReply(
            content=str(content),
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            cost_usd=cost,
        )

    def _finish(
        self,
        step: str,
        started: float,
        tally: _Tally,
        key: str | None,
        value: T,
        *,
        repaired: bool = False,
        reason: str | None = None,
    ) -> LlmResult[T]:
        record = CallRecord(
            step=step,
            model=self.settings.model,
            request_key=key,
            prompt_tokens=tally.prompt_tokens,
            completion_tokens=tally.completion_tokens,
            cost_usd=tally.cost_usd,
            latency_s=time.perf_counter() - started,
            attempts=tally.attempts,
            cache_hit=tally.cache_hits > 0 and tally.provider_calls == 0,
            repaired=repaired,
            fallback=reason is not None,
            reason=reason,
        )
        return LlmResult(value=value, record=record)


def _litellm() -> ModuleType:
    # Imported on first use: it takes seconds, and the model-free path never needs it.
    import litellm

    # Without this, litellm prints a provider-list banner for every call to a model missing
    # from its price map (any local model), and a help banner for every provider error,
    # which the call record already holds.
    litellm.suppress_debug_info = True
    return litellm


def _parse(reply: str, schema: type[T]) -> T:
    """Strict parsing: the whole reply (less a Markdown fence) must be the JSON object."""
    text = reply.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    if not text:
        raise ValueError("the reply was empty")
    return schema.model_validate_json(text)


def _describe(error: ValueError) -> str:
    if isinstance(error, ValidationError):
        return "; ".join(
            f"{'.'.join(str(part) for part in item['loc']) or 'reply'}: {item['msg']}"
            for item in error.errors(include_url=False)
        )
    return str(error)


def _schema_text(schema: type[BaseModel]) -> str:
    return json.dumps(schema.model_json_schema(), separators=(",", ":"))


def _deadline_reason(deadline: Deadline, exc: Exception | None = None) -> str:
    """The fallback reason of a call the question's deadline stopped (the trace names it)."""
    cause = f" ({_error_text(exc)})" if exc is not None else ""
    return f"deadline: the question's {deadline.seconds:g} s passed{cause}"


def _error_text(exc: Exception) -> str:
    return f"{type(exc).__name__}: {str(exc)[:_ERROR_CHARS]}"
