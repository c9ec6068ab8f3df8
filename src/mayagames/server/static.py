"""Static files for the browser, compressed and cacheable.

Each file is read once, gzip-compressed once (kept in memory, keyed by its
modification time and size) and served with a strong ETag and ``Cache-Control:
no-cache``: a browser keeps its copy and revalidates it with ``If-None-Match``,
which the server answers with an empty ``304`` until the file changes. Clients
that do not accept gzip get the plain bytes. The favicon is an SVG drawn for
the project (``static/favicon.svg``).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

CACHE_CONTROL = "no-cache"  # keep, but revalidate (ETag) before each use
COMPRESSIBLE = (".html", ".js", ".css", ".svg", ".json", ".txt", ".md")
MIN_COMPRESS = 256  # bytes: below this gzip's header costs more than it saves


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    gzipped: bytes | None
    etag: str
    media_type: str


class StaticStore:
    """The files under ``root``, each loaded and compressed on first request."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.cache: dict[Path, tuple[tuple[int, int], StaticFile]] = {}

    def resolve(self, relative: str) -> Path | None:
        """The file for a URL path inside ``root`` (None: outside it, or not a file)."""
        path = (self.root / relative).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            return None
        return path

    def load(self, path: Path) -> StaticFile:
        stat = path.stat()
        key = (stat.st_mtime_ns, stat.st_size)
        cached = self.cache.get(path)
        if cached and cached[0] == key:
            return cached[1]
        body = path.read_bytes()
        gzipped = None
        if path.suffix in COMPRESSIBLE and len(body) >= MIN_COMPRESS:
            gzipped = gzip.compress(body, compresslevel=9, mtime=0)
        media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix == ".js":
            media_type = "text/javascript"
        if media_type.startswith("text/") or path.suffix == ".svg":
            media_type += "; charset=utf-8"
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        entry = StaticFile(body, gzipped, etag, media_type)
        self.cache[path] = (key, entry)
        return entry

    def response(self, request: Request, path: Path) -> Response:
        """The file as a response: 304 when the client's copy is current, gzip when accepted."""
        entry = self.load(path)
        headers = {"ETag": entry.etag, "Cache-Control": CACHE_CONTROL, "Vary": "Accept-Encoding"}
        if entry.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        accepts = "gzip" in request.headers.get("accept-encoding", "").lower()
        if entry.gzipped is not None and accepts:
            headers["Content-Encoding"] = "gzip"
            return Response(entry.gzipped, media_type=entry.media_type, headers=headers)
        return Response(entry.body, media_type=entry.media_type, headers=headers)
