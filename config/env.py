"""Reading settings from the environment, failing loudly on a bad value.

Every setting Gauntlet reads from the environment goes through these helpers so
that a typo (``DEBUG=ture``, ``DATABASE_URL=postgress://``) stops the process
with a message naming the variable instead of running with a silent default.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit


class ImproperlyConfiguredEnv(RuntimeError):
    """A variable in the environment has a value Gauntlet cannot use."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfiguredEnv(
        f"{name}={raw!r} is not a boolean; use one of {sorted(_TRUE | _FALSE - {''})}"
    )


def env_int(name: str, default: int, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfiguredEnv(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfiguredEnv(f"{name}={value} must be at least {minimum}")
    return value


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value not in choices:
        raise ImproperlyConfiguredEnv(f"{name}={raw!r}: use one of {', '.join(choices)}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_header_pair(name: str) -> tuple[str, str] | None:
    """A request header and the value that marks the request as secure, written
    ``HTTP_X_FORWARDED_PROTO,https`` (Django's ``SECURE_PROXY_SSL_HEADER``); unset: None."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return None
    parts = [part.strip() for part in raw.split(",")]
    if len(parts) != 2 or not all(parts) or not parts[0].startswith("HTTP_"):
        raise ImproperlyConfiguredEnv(
            f"{name}={raw!r}: give the header as Django names it and the value, "
            "as HTTP_X_FORWARDED_PROTO,https"
        )
    return parts[0], parts[1]


def env_rate(name: str, default: str) -> str:
    """A request rate as Django REST framework reads it: ``<count>/<sec|min|hour|day>``."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    count, _, period = value.partition("/")
    if not count.isdigit() or int(count) < 1 or period not in _PERIODS:
        raise ImproperlyConfiguredEnv(
            f"{name}={raw!r} is not a rate: give requests per period, as 120/min "
            f"(periods: {', '.join(sorted(_PERIODS))})"
        )
    return value


_PERIODS = {"s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day"}


def parse_database_url(url: str, base_dir: Path) -> dict:
    """Turn ``sqlite:///path`` or ``postgres://user:pw@host:port/name`` into DATABASES['default']."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        # sqlite:///relative.db and sqlite:////absolute/path.db, as SQLAlchemy spells them.
        raw_path = unquote(url[len("sqlite://") :])
        if raw_path in ("", "/"):
            raise ImproperlyConfiguredEnv(f"DATABASE_URL={url!r} names no SQLite file")
        path = Path(raw_path[1:]) if raw_path.startswith("/") else Path(raw_path)
        if raw_path.startswith("//"):
            path = Path(raw_path[1:])
        elif not path.is_absolute():
            path = base_dir / path
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(path),
            "OPTIONS": {"timeout": 30, "transaction_mode": "IMMEDIATE"},
        }
    if scheme in ("postgres", "postgresql", "pgsql"):
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfiguredEnv(f"DATABASE_URL={url!r} names no database")
        options = {key: values[-1] for key, values in parse_qs(parts.query).items()}
        if "pool" in options:
            options["pool"] = _pool_option(options["pool"], url)
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfiguredEnv(f"DATABASE_URL={url!r} has a bad port") from None
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            # 0: under ASGI each request runs in its own thread, so kept-alive
            # connections would pile up past max_connections instead of being reused;
            # the pool (``database_pool``) reuses them instead, and Django requires 0 with it.
            "CONN_MAX_AGE": 0,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": options,
        }
    raise ImproperlyConfiguredEnv(
        f"DATABASE_URL={url!r}: unsupported scheme {scheme!r} (use sqlite:/// or postgres://)"
    )


def _pool_option(raw: str, url: str) -> dict | bool:
    """``?pool=`` in DATABASE_URL: off/false/0, on/true (the sizes from the environment),
    a maximum size, or the settings' own dict written out (``{'max_size': 8, ...}``)."""
    value = raw.strip()
    if value.lower() in _FALSE or value == "0":
        return False
    if value.lower() in _TRUE:
        return database_pool() or {}
    if value.isdigit():
        return {**(database_pool() or {}), "max_size": int(value), "min_size": 0}
    if value.startswith("{"):
        import ast

        try:
            parsed = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    raise ImproperlyConfiguredEnv(f"DATABASE_URL={url!r}: pool={raw!r} is not a pool setting")


def database_pool() -> dict | bool:
    """psycopg's connection pool for PostgreSQL, per process, from the environment.

    ``DATABASE_POOL_MAX`` connections at most (default 8; 0 turns pooling off and every
    request opens its own connection), ``DATABASE_POOL_MIN`` kept open (default 1),
    ``DATABASE_POOL_TIMEOUT`` seconds a request waits for a free connection before it
    fails (default 30). Every process has its own pool: the ASGI server, each Celery
    worker process, each test run; their sum must stay under PostgreSQL's max_connections.
    """
    size = env_int("DATABASE_POOL_MAX", 8, minimum=0)
    if size == 0:
        return False
    low = env_int("DATABASE_POOL_MIN", 1, minimum=0)
    if low > size:
        raise ImproperlyConfiguredEnv(
            f"DATABASE_POOL_MIN={low} must not exceed DATABASE_POOL_MAX={size}"
        )
    return {"min_size": low, "max_size": size, "timeout": env_int("DATABASE_POOL_TIMEOUT", 30, 1)}


def parse_redis_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss", "unix"):
        raise ImproperlyConfiguredEnv(
            f"REDIS_URL={url!r}: scheme must be redis://, rediss:// or unix://"
        )
    if parts.scheme != "unix" and not parts.hostname:
        raise ImproperlyConfiguredEnv(f"REDIS_URL={url!r} names no host")
    return url


GC_THRESHOLDS_DEFAULT = (20_000, 50, 100)


def gc_thresholds() -> tuple[int, ...] | None:
    """``GC_THRESHOLDS``: the collector's thresholds for server and worker processes
    (one to three positive integers, comma-separated), or ``off`` for Python's own."""
    raw = os.environ.get("GC_THRESHOLDS")
    if raw is None or raw.strip() == "":
        return GC_THRESHOLDS_DEFAULT
    if raw.strip().lower() == "off":
        return None
    try:
        values = tuple(int(part) for part in raw.split(","))
    except ValueError:
        values = ()
    if not 1 <= len(values) <= 3 or min(values) < 1:
        raise ImproperlyConfiguredEnv(
            f"GC_THRESHOLDS={raw!r}: give one to three positive integers (as 20000,50,100) or off"
        )
    return values
