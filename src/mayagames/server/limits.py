"""What one client may cost the server: the settings of a public server and their checks.

:class:`ServerLimits` gathers every limit (request size, bot thinking, request rates,
tables kept in memory, allowed WebSocket origins, fixed seeds). Its defaults are safe to
put on the internet; ``mayagames serve`` sets each one from a flag or an environment
variable (``docs/server.md`` lists them).

* :func:`check_bot_spec` refuses, when a table is created, a bot spec that would think
  longer than the limits allow, whose settings are not finite numbers, or that names an
  estimate its game does not have (``eval=NAME``);
  :func:`cap_agent` bounds an agent built from a stored spec (a table created before the
  limits were lowered) so that no decision outlives them either.
* :class:`RateLimiter` keeps token buckets per client address and per seat token.
"""

from __future__ import annotations

import math
import os
import re
import time
import unicodedata
from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

from ..agents import HeuristicAgent, LevelAgent, MCTSAgent, make_agent
from ..agents.hooks import estimator
from ..core.registry import get_game

ENV_PREFIX = "MAYAGAMES_"


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, refilled evenly over ``per`` seconds (a token bucket)."""

    burst: float
    per: float

    @property
    def refill(self) -> float:
        """Tokens added per second."""
        return self.burst / self.per

    def __str__(self) -> str:
        return f"{self.burst:g}/{self.per:g}s"

    @classmethod
    def parse(cls, text: str) -> "Rate | None":
        """``20/60s`` (20 at once, 20 per minute); ``off``: no limit (None)."""
        text = text.strip().lower()
        if text in ("off", "none", "0"):
            return None
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*/\s*(\d+(?:\.\d+)?)\s*s?", text)
        if not m or float(m.group(1)) <= 0 or float(m.group(2)) <= 0:
            raise ValueError(f"a rate looks like 20/60s (20 at once, refilled over 60 s) or "
                             f"'off', not {text!r}")
        return cls(float(m.group(1)), float(m.group(2)))


@dataclass(frozen=True)
class ServerLimits:
    """Every limit of the server; defaults fit a public server on a small machine."""

    # requests
    max_body_bytes: int = 64 * 1024          # a larger body gets 413 before it is read
    # bots (the default is what the 'hard' level uses: mcts:1s)
    bot_max_seconds: float = 1.0             # thinking time per decision
    bot_max_iterations: int = 2000           # MCTS iterations per decision (~1 s on one core)
    bot_max_samples: int = 3                 # heuristic determinizations per decision ('medium')
    bot_max_worlds: int = 100                # MCTS sampled worlds kept (worlds=K)
    bot_max_depth: int = 3                   # heuristic own decisions looked through
    # request rates (None: unlimited)
    rate_tables: Rate | None = Rate(20, 60)          # table creations per client address
    rate_moves: Rate | None = Rate(60, 10)           # moves and undos per seat token
    rate_moves_address: Rate | None = Rate(300, 10)  # moves and undos per client address
    rate_state: Rate | None = Rate(60, 10)           # state requests (hello, GET) per address
    rate_socket: Rate | None = Rate(120, 10)         # messages per WebSocket (flood: closed)
    rate_analysis: Rate | None = Rate(20, 60)        # review and hint requests per address
    rate_signups: Rate | None = Rate(10, 3600)       # new accounts per address
    rate_chat_table: Rate | None = Rate(20, 10)      # chat lines per table, all authors together
    # memory
    max_tables_in_memory: int = 500          # loaded tables kept; the least recent idle go first
    idle_seconds: float = 600.0              # a table nobody watches is unloaded after this
    # who may do what
    allowed_origins: tuple[str, ...] = ()    # origins of pages besides the server's own that may open
                                             # WebSockets and send state-changing requests
    allow_fixed_seed: bool = False           # may a table's creator choose its seed?
    max_name_length: int = 40                # seat names are cut to this

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> "ServerLimits":
        """The defaults, changed by ``MAYAGAMES_<FIELD>`` variables, then by ``overrides``
        (``None`` overrides are ignored: a flag not given)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is not None and raw.strip() != "":
                values[f.name] = parse_setting(f.name, raw)
        if env.get(ENV_PREFIX + "RATE_LIMITS", "").strip().lower() == "off":
            values.update({name: None for name in RATE_FIELDS})
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(cls(), **values)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values (rates as their text), for :meth:`from_dict`."""
        return {f.name: (str(v) if isinstance(v := getattr(self, f.name), Rate) else
                         list(v) if isinstance(v, tuple) else v) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ServerLimits":
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name in data:
                value = data[f.name]
                if f.name in RATE_FIELDS:
                    value = Rate.parse(value) if value is not None else None
                elif f.name == "allowed_origins":
                    value = tuple(value)
                values[f.name] = value
        return replace(cls(), **values)

    def without_rate_limits(self) -> "ServerLimits":
        return replace(self, **{name: None for name in RATE_FIELDS})


RATE_FIELDS = ("rate_tables", "rate_moves", "rate_moves_address", "rate_state", "rate_socket",
               "rate_analysis", "rate_signups", "rate_chat_table")


def parse_setting(name: str, raw: str) -> Any:
    """A setting's value from its text (environment variable or flag)."""
    default = getattr(ServerLimits(), name)
    if name in RATE_FIELDS:
        return Rate.parse(raw)
    if name == "allowed_origins":
        return tuple(o.strip().rstrip("/") for o in raw.split(",") if o.strip())
    if isinstance(default, bool):
        if raw.strip().lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
            raise ValueError(f"{ENV_PREFIX}{name.upper()} must be on or off, not {raw!r}")
        return raw.strip().lower() in ("1", "true", "yes", "on")
    number = float(raw)
    if not math.isfinite(number) or number <= 0:
        raise ValueError(f"{ENV_PREFIX}{name.upper()} must be a positive number, not {raw!r}")
    return int(number) if isinstance(default, int) else number


# --- bot specs ------------------------------------------------------------------------
class BotSpecError(ValueError):
    """A bot spec the server refuses: ``limit`` names the setting it exceeds (if any)."""

    def __init__(self, message: str, limit: str | None = None) -> None:
        super().__init__(message)
        self.limit = limit


def check_bot_spec(spec: str, limits: ServerLimits, game: str) -> None:
    """Refuse a spec that does not parse, has a setting that is not a finite number, names
    an estimate ``game`` does not have (``eval=NAME``), or would think beyond ``limits``
    (the message names the limit and its setting)."""
    for part in spec.partition(":")[2].split(","):
        key, sep, value = part.partition("=")
        if sep and not finite_or_text(value):
            raise BotSpecError(f"agent {spec!r}: {key.strip()} must be a finite number, "
                               f"not {value.strip()!r}")
    try:
        agent = make_agent(spec, 0)
    except (ValueError, TypeError, OverflowError) as exc:
        raise BotSpecError(str(exc)) from exc
    for name, value in attributes_of(agent).items():
        if isinstance(value, float) and not math.isfinite(value):
            raise BotSpecError(f"agent {spec!r}: {name} must be a finite number")
    check_estimates(agent, game, spec)
    for what, value, limit in thinking_of(agent):
        if value > getattr(limits, limit):
            raise BotSpecError(
                f"agent {spec!r}: {what} {value:g} is over this server's limit of "
                f"{getattr(limits, limit):g} ({limit}, setting {ENV_PREFIX}{limit.upper()})",
                limit)


def attributes_of(agent: Any) -> dict[str, Any]:
    """The agent's attributes: its ``__dict__``, or, for a native class of the compiled build
    (the MCTS agent; no ``__dict__``), the attributes its class declares (mypyc lists them in
    ``__mypyc_attrs__``)."""
    if hasattr(agent, "__dict__"):
        return dict(vars(agent))
    names = getattr(type(agent), "__mypyc_attrs__", ())
    return {name: getattr(agent, name) for name in names if hasattr(agent, name)}


def check_estimates(agent: Any, game: str, spec: str) -> None:
    """Refuse an ``eval=NAME`` that ``game`` does not have, when the table is created
    rather than at the bot's first move (a game that names no estimate plays its one). Of a
    level that differs by game, only the agent that plays ``game`` is checked."""
    playing = agent.agent_for(game) if isinstance(agent, LevelAgent) else agent
    name = playing.eval if isinstance(playing, (HeuristicAgent, MCTSAgent)) else None
    if name:
        try:
            estimator(get_game(game), name)
        except ValueError as exc:
            raise BotSpecError(f"agent {spec!r}: {exc}") from exc


def finite_or_text(value: str) -> bool:
    """False for ``nan``, ``inf`` and the like (text that is not a number is for the
    agent's own parser to judge)."""
    try:
        return math.isfinite(float(value))
    except ValueError:
        return True


def each_agent(agent: Any) -> list[Any]:
    """The agents a spec may play with: each agent of a level that differs by game."""
    return agent.agents() if isinstance(agent, LevelAgent) else [agent]


def thinking_of(agent: Any) -> list[tuple[str, float, str]]:
    """What an agent spends per decision: (what, amount, the limit that bounds it); a
    level that differs by game: what each of its agents spends."""
    return [spent for one in each_agent(agent) for spent in thinking_of_one(one)]


def thinking_of_one(agent: Any) -> list[tuple[str, float, str]]:
    if isinstance(agent, MCTSAgent):
        spent: list[tuple[str, float, str]] = [("worlds", agent.worlds or 0, "bot_max_worlds")]
        if agent.seconds is not None:
            spent.append(("seconds", agent.seconds, "bot_max_seconds"))
        if agent.iterations is not None:
            spent.append(("iterations", agent.iterations, "bot_max_iterations"))
        return spent
    if isinstance(agent, HeuristicAgent):
        deepest = max((agent.depth or 0, *agent.depth_by_game.values()))
        return [("samples", agent.samples, "bot_max_samples"),
                ("depth", deepest, "bot_max_depth")]
    return []


def cap_agent(agent: Any, limits: ServerLimits) -> Any:
    """Bound an agent's thinking to ``limits`` (a stored spec from before they were lowered)."""
    for one in each_agent(agent):
        cap_one(one, limits)
    return agent


def cap_one(agent: Any, limits: ServerLimits) -> None:
    if isinstance(agent, MCTSAgent):
        if agent.seconds is not None or agent.iterations is None:
            agent.seconds = min(agent.seconds or limits.bot_max_seconds, limits.bot_max_seconds)
        if agent.iterations is not None:
            agent.iterations = min(agent.iterations, limits.bot_max_iterations)
        agent.worlds = min(agent.worlds or 0, limits.bot_max_worlds)
    elif isinstance(agent, HeuristicAgent):
        agent.samples = min(agent.samples, limits.bot_max_samples)
        if agent.depth is not None:
            agent.depth = min(agent.depth, limits.bot_max_depth)
        agent.depth_by_game = {g: min(d, limits.bot_max_depth) for g, d in agent.depth_by_game.items()}


# --- seat names -----------------------------------------------------------------------
def clean_name(name: str | None, limits: ServerLimits) -> str:
    """A seat name fit to show: control and format characters (including bidirectional
    overrides) removed, spaces collapsed, cut to ``max_name_length``."""
    text = "".join(" " if ch.isspace() else ch for ch in (name or "")
                   if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join(text.split())[:limits.max_name_length].strip()


# --- rates ----------------------------------------------------------------------------
@dataclass
class Bucket:
    tokens: float
    stamp: float


@dataclass
class RateLimiter:
    """Token buckets by (kind, key); ``allow`` takes one token or says how long to wait.

    Memory stays bounded: past ``max_keys`` buckets, those full again are dropped."""

    max_keys: int = 100_000
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    clock: Any = time.monotonic

    def allow(self, kind: str, key: str, rate: Rate | None) -> float:
        """0 when allowed (a token taken), else the seconds until one is available."""
        if rate is None:
            return 0.0
        now = self.clock()
        bucket = self.buckets.get((kind, key))
        if bucket is None:
            if len(self.buckets) >= self.max_keys:
                self.prune(now, rate)
            bucket = self.buckets[(kind, key)] = Bucket(rate.burst, now)
        bucket.tokens = min(rate.burst, bucket.tokens + (now - bucket.stamp) * rate.refill)
        bucket.stamp = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / rate.refill

    def prune(self, now: float, rate: Rate) -> None:
        """Forget buckets that have refilled (their keys have been quiet)."""
        quiet = [k for k, b in self.buckets.items() if (now - b.stamp) * rate.refill >= rate.burst]
        for key in quiet or list(self.buckets)[: len(self.buckets) // 2]:
            del self.buckets[key]
