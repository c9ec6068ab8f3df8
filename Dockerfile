# mayagames web server image (issue 22). Stage 1 builds the wheel with the package's own build
# backend (the engine compiled with mypyc) and the wheels of its dependencies; stage 2 is a slim
# runtime that installs them offline and runs as an unprivileged user.
#   docker build -t mayagames .        (or: docker compose up -d --build, see compose.yaml)
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py MANIFEST.in README.md ./
COPY build_backend ./build_backend
COPY tools ./tools
COPY src ./src
RUN pip wheel --no-cache-dir --no-deps -w /wheels . \
    && pip wheel --no-cache-dir -w /wheels "$(ls /wheels/mayagames-*.whl)[server]"

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 mayagames && mkdir /data && chown mayagames /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels "mayagames[server]" \
    && rm -rf /wheels
USER mayagames
WORKDIR /data
ENV DATABASE_URL=sqlite:////data/mayagames.db PYTHONUNBUFFERED=1
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --retries=3 \
    CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/ready', timeout=4)"
CMD ["mayagames", "serve", "--host", "0.0.0.0", "--port", "8000", "--no-open", "--log-format", "json"]
