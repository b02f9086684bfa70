"""Where the LLM extractor's settings come from (environment variable names), apart from the
extractor itself so the command line can name them without loading it."""

from __future__ import annotations

from typing import Final

#: Base URL of an OpenAI-compatible endpoint, e.g. ``http://localhost:11434/v1`` (Ollama).
LLM_URL_ENV: Final = "MEMVAULT_LLM_URL"
#: Model name the endpoint serves.
LLM_MODEL_ENV: Final = "MEMVAULT_LLM_MODEL"
#: API key sent as a bearer token, when the endpoint needs one.
LLM_KEY_ENV: Final = "MEMVAULT_LLM_API_KEY"
