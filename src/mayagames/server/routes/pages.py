"""The browser's pages and static files (gzip-compressed, with ETags): the lobby, a table,
a profile, a review, the rules, and ``/docs`` (the API's Swagger UI); none of them is part
of the API (not in ``/openapi.json``)."""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, Response

from ...core.errors import MayaGamesError
from ...core.registry import get_game
from ...web import STATIC_DIR
from ...web.rules import rules_html
from ..guard import CONTENT_SECURITY_POLICY
from ..rooms import ServerError
from ..static import StaticStore

router = APIRouter(include_in_schema=False)


def static_store(request: Request) -> StaticStore:
    """The app's store of static files (each loaded and compressed once; app.state.static)."""
    return request.app.state.static  # type: ignore[no-any-return]


Store = Annotated[StaticStore, Depends(static_store)]


@router.api_route("/static/{path:path}", methods=["GET", "HEAD"])
async def static_file(request: Request, path: str, store: Store) -> Response:
    found = store.resolve(path)
    if found is None:
        raise ServerError(404, "not_found", f"no static file {path!r}")
    return store.response(request, found)


@router.api_route("/favicon.ico", methods=["GET", "HEAD"])
@router.api_route("/favicon.svg", methods=["GET", "HEAD"])
async def favicon(request: Request, store: Store) -> Response:
    return store.response(request, STATIC_DIR / "favicon.svg")


@router.api_route("/", methods=["GET", "HEAD"])
async def lobby(request: Request, store: Store) -> Response:
    return store.response(request, STATIC_DIR / "index.html")


@router.api_route("/table/{table_id}", methods=["GET", "HEAD"])
async def table_page(request: Request, table_id: str, store: Store) -> Response:
    return store.response(request, STATIC_DIR / "table.html")


@router.get("/profile/{name}")
async def profile_page(name: str) -> FileResponse:
    return FileResponse(STATIC_DIR / "profile.html")


@router.get("/review/{table_id}")
async def review_page(table_id: str) -> FileResponse:
    return FileResponse(STATIC_DIR / "review.html")


@router.get("/rules/{name}")
async def rules_page(name: str) -> HTMLResponse:
    """The game's rules in our own words (sections have anchor ids: /rules/tzolkin#buildings)."""
    try:
        info = get_game(name)
    except (MayaGamesError, ImportError, KeyError) as exc:
        raise ServerError(404, "no_game", f"no game {name[:40]!r}") from exc
    page = rules_html(info)
    if not page:
        raise ServerError(404, "no_rules", f"{info.title} has no rules page")
    return HTMLResponse(page)


# --- /docs ---------------------------------------------------------------------------------
#: where the Swagger UI page loads its script and stylesheet from (the page only: the
#: OpenAPI document itself is this server's /openapi.json)
SWAGGER_CDN = "https://cdn.jsdelivr.net"


@router.get("/docs")
async def api_docs(request: Request) -> HTMLResponse:
    """The API's interactive documentation (Swagger UI) over ``/openapi.json``."""
    page = get_swagger_ui_html(openapi_url=request.app.openapi_url,
                               title=f"{request.app.title}: the API",
                               swagger_favicon_url="/favicon.svg")
    page.headers["Content-Security-Policy"] = docs_policy(bytes(page.body).decode())
    return page


def docs_policy(html: str) -> str:
    """The content security policy of the docs page: the server's own (guard.py), plus the
    Swagger UI's files on :data:`SWAGGER_CDN` and the page's own inline script (by hash)."""
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"
                      for script in re.findall(r"<script>(.*?)</script>", html, re.S))
    return (CONTENT_SECURITY_POLICY
            .replace("script-src 'self'", f"script-src 'self' {SWAGGER_CDN} {hashes}")
            .replace("style-src 'self'", f"style-src 'self' {SWAGGER_CDN}"))
