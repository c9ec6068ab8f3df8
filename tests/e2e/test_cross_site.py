"""Cross-site request forgery, performed by a real browser (issue 26, item 2): a page on
another port of the same host (same site, so the SameSite=Lax session cookie rides along)
tries to re-issue the creator's invite link, by a form POST and by fetch. Both are refused
(403 ``cross_site``) and the friend's link keeps working; the app's own page still may.
And the lobby's "Recent tables" of another account (issue 23, item 2)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pytest

PASSWORD = "correct horse battery"


@pytest.fixture
def app_server(tmp_path: Path, support: Any) -> Iterator[Any]:
    from mayagames.server import create_app
    from mayagames.server.limits import ServerLimits

    app = create_app(f"sqlite:///{tmp_path / 'csrf.db'}", bot_delay=0.0, list_test_games=True,
                     fast_password_hashes=True, limits=ServerLimits().without_rate_limits())
    with support.LiveServer(app) as live:
        yield live


@pytest.fixture
def evil_site(support: Any) -> Iterator[Any]:
    """Another origin on the same host: serves whatever page the test puts in ``pages``."""
    pages: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            body = pages.get(self.path, "<p>nothing here</p>").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except BrokenPipeError:  # the page navigated away first
                pass

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", support.free_port()), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    httpd.pages = pages  # type: ignore[attr-defined]
    httpd.url = f"http://127.0.0.1:{httpd.server_address[1]}"  # type: ignore[attr-defined]
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_page_of_another_origin_cannot_act_with_the_cookie(app_server, evil_site, new_page):
    url = app_server.url
    page = new_page(base_url=url)
    made = page.context.request.post("/api/accounts", data={"name": "Ana", "password": PASSWORD})
    assert made.ok, made.text()
    created = page.context.request.post("/api/tables", data={"game": "toy", "players": 2})
    assert created.ok, created.text()
    table, token = created.json()["table"], created.json()["seats"][1]["token"]
    invite = f"{url}/api/tables/{table}/seats/1/invite"

    def friend_still_in() -> bool:
        seen = page.context.request.get(f"/api/tables/{table}", headers={"Authorization": f"Bearer {token}"})
        return seen.json().get("seat") == 1

    # 1. a form that posts itself (a top-level navigation: the cookie is sent, same site)
    evil_site.pages["/form"] = (f'<form id="f" method="POST" action="{invite}"></form>'
                                '<script>document.getElementById("f").submit()</script>')
    with page.expect_response(invite) as answer:
        page.goto(evil_site.url + "/form")
    assert answer.value.status == 403
    assert json.loads(answer.value.text())["error"] == "cross_site"
    assert friend_still_in()
    # 2. fetch with the visitor's credentials (no-cors: the page cannot read the answer, but
    # before the fix the server acted all the same)
    evil_site.pages["/fetch"] = "<p>cat pictures</p>"
    page.goto(evil_site.url + "/fetch")
    status = page.evaluate("""async (target) => {
        const answer = await fetch(target, {method: "POST", credentials: "include", mode: "no-cors"});
        return answer.type; }""", invite)
    assert status == "opaque"
    assert friend_still_in()
    chat = page.evaluate("""async (target) => {
        await fetch(target, {method: "POST", credentials: "include", mode: "no-cors",
                             headers: {"Content-Type": "text/plain"}, body: '{"text": "spam"}'});
        return true; }""", f"{url}/api/tables/{table}/chat")
    assert chat and page.context.request.get(f"/api/tables/{table}/chat").json()["chat"] == []
    # 3. the server's own page does the same with its own fetch: allowed
    page.goto(f"{url}/table/{table}")
    reissued = page.evaluate("""async (target) => {
        const answer = await fetch(target, {method: "POST"});
        return [answer.status, await answer.json()]; }""", f"/api/tables/{table}/seats/1/invite")
    assert reissued[0] == 200 and reissued[1]["token"] != token
    assert not friend_still_in()


def test_recent_tables_never_list_other_peoples_private_tables(app_server, new_page):
    """Issue 23, item 2: a brand-new account's "Recent tables" listed other people's
    private tables with an "open" link."""
    from playwright.sync_api import expect

    url = app_server.url
    ana = new_page(base_url=url)
    assert ana.context.request.post("/api/accounts", data={"name": "Ana", "password": PASSWORD}).ok
    private = ana.context.request.post("/api/tables", data={"game": "toy", "players": 2}).json()["table"]
    public = ana.context.request.post("/api/tables", data={"game": "toy", "players": 2,
                                                           "public": True}).json()["table"]
    newcomer = new_page(base_url=url)
    assert newcomer.context.request.post("/api/accounts", data={"name": "Newcomer",
                                                                "password": PASSWORD}).ok
    for page, shown in ((newcomer, {public}), (ana, {private, public})):
        page.goto(url + "/")
        expect(page.locator(f'#recent a[href="/table/{public}"]')).to_have_count(1)
        links = page.locator("#recent a").evaluate_all("(as) => as.map((a) => a.getAttribute('href'))")
        assert {href.rsplit("/", 1)[1] for href in links} == shown
