"""LLM access for every LLM step: a litellm client, its call cache, prompts and output schemas.

Example:
    >>> from pathlib import Path
    >>> from littrace.config import load_settings
    >>> from littrace.llm import LlmClient, render
    >>> from littrace.llm.replies import Plan
    >>> settings = load_settings(environ={})
    >>> client = LlmClient.from_settings(settings)  # backend 'none' by default: no model calls
    >>> messages = render("plan", question="Which ...?", answer_spec="freeform")
    >>> client.complete_json("plan", messages, Plan, fallback=Plan).record.reason
    'backend none'
"""

from littrace.llm.cache import CachedReply, CallCache, request_key
from littrace.llm.client import CallRecord, LlmClient, LlmError, LlmResult, Message
from littrace.llm.prompts import MISSING_FILLER, PromptError, prompt_names, render

__all__ = [
    "MISSING_FILLER",
    "CachedReply",
    "CallCache",
    "CallRecord",
    "LlmClient",
    "LlmError",
    "LlmResult",
    "Message",
    "PromptError",
    "prompt_names",
    "render",
    "request_key",
]
