"""The one scripted litellm provider of the tests (no network): the real LlmClient path runs
(rendering, caching, JSON parsing, repair rounds, retries, deadlines) against replies a test
scripts. The ``scripted`` fixture of ``tests/conftest.py`` registers a fresh one per test under
every model prefix in :data:`PROVIDERS` (``scripted/...``, ``bystep/...``, ``slow/...``).

Replies come from ``script``: a list, used in call order, or a dict of lists keyed by the step
that ``route`` names from a call's messages, used in that step's call order; in both the last
reply repeats. A reply is a text, an exception to raise, or a function giving the text (or
raising). Every call is kept in ``calls``, with its messages and kwargs.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# isort: off
import littrace  # noqa: F401  (first: its bootstrap keeps litellm from fetching price maps)

# isort: on
import litellm
from litellm.llms.custom_llm import CustomLLM

Reply = str | Exception | Callable[[], str]
Messages = list[dict[str, str]]
Route = Callable[[Messages], str]
PROVIDERS = ("scripted", "bystep", "slow")


@dataclass
class Call:
    """One call the provider received."""

    model: str
    messages: Messages
    params: dict[str, Any]
    timeout: Any
    api_key: Any
    step: str | None = None  # what ``route`` named it, if routed

    @property
    def prompt(self) -> str:
        return self.messages[-1]["content"]

    @property
    def first_prompt(self) -> str:
        """The step's own prompt (a repair round appends the reply and a repair message)."""
        return next(m["content"] for m in self.messages if m["role"] == "user")


@dataclass
class ScriptedLlm(CustomLLM):
    """A litellm provider replying from ``script`` (see the module doc).

    ``usage``: the ``(prompt, completion)`` tokens each reply reports (None: litellm's default).
    ``delay_s``: each call takes that long, and, like an HTTP client, gives up with a timeout
    error after the request's timeout when that is shorter. ``gate``: a barrier every call waits
    at. ``active``/``max_active``: the calls in flight, now and at most.
    """

    script: list[Reply] | dict[str, list[Reply]] = field(default_factory=list)
    route: Route | None = None
    usage: tuple[int, int] | None = None
    delay_s: float = 0.0
    gate: threading.Barrier | None = None
    calls: list[Call] = field(default_factory=list)
    active: int = 0
    max_active: int = 0

    def __post_init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()

    @property
    def prompts(self) -> list[str]:
        """Each call's last message."""
        return [call.prompt for call in self.calls]

    @property
    def timeouts(self) -> list[float]:
        """Each call's request timeout."""
        return [float(call.timeout) for call in self.calls]

    def steps(self) -> list[str | None]:
        """Each call's step, as ``route`` named it."""
        return [call.step for call in self.calls]

    def _next(self, step: str | None) -> Reply:
        if isinstance(self.script, dict):
            if step is None:
                raise AssertionError("a script keyed by step needs a route")
            replies = self.script[step]
            count = sum(call.step == step for call in self.calls)
        else:
            replies, count = self.script, len(self.calls)
        return replies[min(count, len(replies) - 1)]

    def completion(self, *args: Any, **kwargs: Any) -> Any:
        messages = [dict(message) for message in kwargs["messages"]]
        step = self.route(messages) if self.route is not None else None
        with self._lock:
            reply = self._next(step)
            self.calls.append(
                Call(
                    kwargs["model"],
                    messages,
                    dict(kwargs["optional_params"]),
                    kwargs.get("timeout"),
                    kwargs.get("api_key"),
                    step,
                )
            )
            self.active += 1
            self.max_active = max(self.max_active, self.active)
        try:
            if self.gate is not None:
                # Releases only when `parties` calls are in flight together: proves a limit is
                # reached, while max_active proves it is never exceeded.
                self.gate.wait(timeout=10)
            if self.delay_s:
                timeout = float(kwargs["timeout"])
                time.sleep(min(self.delay_s, timeout))
                if timeout < self.delay_s:
                    raise litellm.Timeout(
                        message="read timed out", model="m", llm_provider="scripted"
                    )
            if isinstance(reply, Exception):
                raise reply
            text = reply() if callable(reply) else reply
            response = kwargs["model_response"]
            response.choices[0].message.content = text
            if self.usage is not None:
                prompt_tokens, completion_tokens = self.usage
                response.usage = litellm.Usage(
                    prompt_tokens=prompt_tokens,
                    completion_tokens=completion_tokens,
                    total_tokens=prompt_tokens + completion_tokens,
                )
            return response
        finally:
            with self._lock:
                self.active -= 1
