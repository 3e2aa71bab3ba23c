"""What ``/openapi.json`` says of the HTTP contract (docs/web.md): the request bodies the
routes read by hand and every refusal each route can answer, with its body.

The routes read their bodies themselves (:func:`undercroft.web.app.read_json`) so that a
bad body is a 4xx naming the field, never FastAPI's own validation answer; these schemas
only document what they accept. The refusals are listed per route as the route really
gives them, so a client (and the schema fuzz test, tests/web/test_schema_fuzz.py) can
hold every answer against the schema.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from undercroft.crawl.app.table import HUMAN


class ErrorBody(BaseModel):
    """Every refusal's body: what was wrong, saying only what the asker already knows."""

    error: str


class NewGame(BaseModel):
    """The body of ``POST /api/crawl/games`` (every field optional, no other)."""

    model_config = ConfigDict(extra="forbid")

    adventure: str | None = Field(None, description="an adventure id (GET /api/crawl/options)")
    party: list[str] | None = Field(None, description="3 to 5 different hero ids (C-SETUP-03)")
    seed: int | None = Field(None, ge=0, le=2**64 - 1, description="dice and policy seed")
    heroes: str = Field(HUMAN, description="'human' or a built-in policy")
    dm: str = Field(HUMAN, description="'human' or a built-in policy")


class NewWorld(BaseModel):
    """The body of ``POST /api/keep/worlds`` (every field optional, no other)."""

    model_config = ConfigDict(extra="forbid")

    scenario: str = Field("trapworks", description="a shipped scenario (GET /api/keep/options)")
    seed: int = Field(1, ge=0, le=2**63 - 1, description="the world's seed")


class JsonLines(PlainTextResponse):
    """A log as JSON Lines."""

    media_type = "application/jsonl"


ACTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["action"],
    "properties": {"action": {"type": "string", "description": "an action as listed in legal"}},
    "additionalProperties": True,
}

PLAYER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["player"],
    "properties": {
        "player": {"type": "string", "description": "'human' or a built-in policy"},
    },
    "additionalProperties": False,
}

COMMAND_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["do"],
    "properties": {
        "do": {"type": "string", "description": "the verb: build, wire, arm, ... (docs/keep.md)"}
    },
    "additionalProperties": True,
    "description": "one keeper command, as a script item without 'when'",
}

LOG_SCHEMA: dict[str, Any] = {
    "type": "string",
    "description": "a log as written by --log: JSON Lines, UTF-8",
}


def advance_schema(most: int, kinds: list[str]) -> dict[str, Any]:
    """``{"minutes": 1..most}`` or ``{"next": true | KIND}``."""
    return {
        "oneOf": [
            {
                "type": "object",
                "required": ["minutes"],
                "properties": {"minutes": {"type": "integer", "minimum": 1, "maximum": most}},
                "additionalProperties": False,
            },
            {
                "type": "object",
                "required": ["next"],
                "properties": {"next": {"anyOf": [{"const": True}, {"enum": kinds}]}},
                "additionalProperties": False,
            },
        ]
    }


def json_body(schema: type[BaseModel] | dict[str, Any]) -> dict[str, Any]:
    """``openapi_extra`` for a route that reads a JSON body by hand."""
    body = schema if isinstance(schema, dict) else schema.model_json_schema()
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": body}}}}


def log_body() -> dict[str, Any]:
    """``openapi_extra`` for a route that reads a log as its body."""
    return {
        "requestBody": {"required": True, "content": {"application/jsonl": {"schema": LOG_SCHEMA}}}
    }


REFUSALS = {
    401: "no valid token for it (Authorization: Bearer TOKEN)",
    403: "a hero's link acting for another hero",
    404: "no such game, world or adventurer (an expired one is gone)",
    409: "not the seat's turn, or the adventure is over",
    413: "the body is over the limit (64 KiB; 8 MiB for a log to replay)",
    415: "a body not sent as Content-Type: application/json",
    422: "a body that is not valid JSON or not what the route reads; the message says why",
    503: "the server holds as many unfinished games or worlds as it may",
}


ERROR_REF = {"$ref": "#/components/schemas/ErrorBody"}
TOKEN = "token"
"""The security scheme of the routes a seat's or a world's token opens."""


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: each status it can refuse with, an :class:`ErrorBody`
    as JSON (named outright: a route whose answer is a log still refuses in JSON)."""
    return {
        s: {"description": REFUSALS[s], "content": {"application/json": {"schema": ERROR_REF}}}
        for s in statuses
    }


def with_token(extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """``openapi_extra`` for a route that needs ``Authorization: Bearer TOKEN``."""
    return {**(extra or {}), "security": [{TOKEN: []}]}


def tidy(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema FastAPI generates, made true to the routes: the error body and the token
    scheme defined once, and no FastAPI validation answer (``HTTPValidationError``) on a
    route whose parameters cannot fail it (plain strings); a route whose can (``seat``)
    lists its own 422, which the app answers as an :class:`ErrorBody`."""
    fastapi_422 = {"$ref": "#/components/schemas/HTTPValidationError"}
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            answer = operation.get("responses", {}).get("422", {})
            if answer.get("content", {}).get("application/json", {}).get("schema") == fastapi_422:
                del operation["responses"]["422"]
    components = schema.setdefault("components", {})
    models = components.setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        models.pop(name, None)
    models["ErrorBody"] = ErrorBody.model_json_schema()
    components["securitySchemes"] = {
        TOKEN: {
            "type": "http",
            "scheme": "bearer",
            "description": "a seat's or hero's token (crawl) or a world's token (keep)",
        }
    }
    return schema
