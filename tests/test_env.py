"""Settings read from the environment fail loudly on bad values."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from config.env import (
    ImproperlyConfiguredEnv,
    env_bool,
    env_choice,
    env_header_pair,
    env_int,
    gc_thresholds,
    parse_database_url,
    parse_redis_url,
)


def test_booleans_accept_the_usual_spellings_and_refuse_typos(monkeypatch):
    monkeypatch.setenv("FLAG", "Yes")
    assert env_bool("FLAG", False) is True
    monkeypatch.setenv("FLAG", "off")
    assert env_bool("FLAG", True) is False
    monkeypatch.setenv("FLAG", "ture")
    with pytest.raises(ImproperlyConfiguredEnv, match="FLAG='ture'"):
        env_bool("FLAG", True)


def test_integers_are_checked(monkeypatch):
    monkeypatch.setenv("THREADS", "four")
    with pytest.raises(ImproperlyConfiguredEnv, match="not an integer"):
        env_int("THREADS", 4)
    monkeypatch.setenv("THREADS", "0")
    with pytest.raises(ImproperlyConfiguredEnv, match="at least 1"):
        env_int("THREADS", 4, minimum=1)


def test_sqlite_urls_resolve_relative_and_absolute_paths():
    base = Path("/srv/app")
    assert parse_database_url("sqlite:///var/db.sqlite3", base)["NAME"] == "/srv/app/var/db.sqlite3"
    assert parse_database_url("sqlite:////tmp/x.sqlite3", base)["NAME"] == "/tmp/x.sqlite3"


def test_postgres_urls_give_every_part():
    db = parse_database_url(
        "postgres://me:s%40cret@db.example:6543/gauntlet?sslmode=require", Path(".")
    )
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["USER"], db["PASSWORD"], db["HOST"], db["PORT"], db["NAME"]) == (
        "me",
        "s@cret",
        "db.example",
        "6543",
        "gauntlet",
    )
    assert db["OPTIONS"] == {"sslmode": "require"}


@pytest.mark.parametrize(
    "url, message",
    [
        ("mysql://x/y", "unsupported scheme"),
        ("postgres://host/", "names no database"),
        ("sqlite://", "no SQLite"),
    ],
)
def test_bad_database_urls_are_refused(url, message):
    with pytest.raises(ImproperlyConfiguredEnv, match=message):
        parse_database_url(url, Path("."))


def test_bad_redis_urls_are_refused():
    assert parse_redis_url("redis://127.0.0.1:6379/0")
    with pytest.raises(ImproperlyConfiguredEnv, match="scheme"):
        parse_redis_url("http://127.0.0.1:6379")
    with pytest.raises(ImproperlyConfiguredEnv, match="no host"):
        parse_redis_url("redis://")


def test_gc_thresholds_default_off_and_bad_values(monkeypatch):
    monkeypatch.delenv("GC_THRESHOLDS", raising=False)
    assert gc_thresholds() == (20_000, 50, 100)
    monkeypatch.setenv("GC_THRESHOLDS", "5000,20")
    assert gc_thresholds() == (5000, 20)
    monkeypatch.setenv("GC_THRESHOLDS", "OFF")
    assert gc_thresholds() is None
    for bad in ("0,10,10", "a,b", "1,2,3,4", "-5"):
        monkeypatch.setenv("GC_THRESHOLDS", bad)
        with pytest.raises(ImproperlyConfiguredEnv, match="GC_THRESHOLDS"):
            gc_thresholds()


def test_tune_gc_moves_what_is_loaded_out_of_the_collectors_sight(monkeypatch):
    import gc

    from config.runtime import tune_gc

    before = gc.get_threshold()
    try:
        monkeypatch.setenv("GC_THRESHOLDS", "12345,6,7")
        tune_gc()
        assert gc.get_threshold() == (12345, 6, 7)
        assert gc.get_freeze_count() > 10_000  # the modules, settings and apps loaded so far
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_choice_is_one_of_its_values_in_any_case(monkeypatch):
    monkeypatch.delenv("CHANNEL_LAYER", raising=False)
    assert env_choice("CHANNEL_LAYER", "pubsub", ("pubsub", "lists")) == "pubsub"
    monkeypatch.setenv("CHANNEL_LAYER", " Lists ")
    assert env_choice("CHANNEL_LAYER", "pubsub", ("pubsub", "lists")) == "lists"
    monkeypatch.setenv("CHANNEL_LAYER", "pubsib")
    with pytest.raises(ImproperlyConfiguredEnv, match="CHANNEL_LAYER='pubsib': use one of"):
        env_choice("CHANNEL_LAYER", "pubsub", ("pubsub", "lists"))


@pytest.mark.parametrize(
    ("kind", "layer"),
    [("pubsub", "RedisPubSubChannelLayer"), ("lists", "core.RedisChannelLayer")],
)
def test_redis_mode_shares_the_cache_whichever_channel_layer(kind, layer):
    """With REDIS_URL, every process shares Redis as its cache (the dashboard's probe,
    the standings debounce), whichever way live messages travel."""
    import subprocess
    import sys

    code = (
        "import django.conf as c; s = c.settings; "
        "print(s.CACHES['default']['BACKEND'], s.CHANNEL_LAYERS['default']['BACKEND'])"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "REDIS_URL": "redis://127.0.0.1:6379/15",
        "CHANNEL_LAYER": kind,
    }
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == "django.core.cache.backends.redis.RedisCache"
    assert out[1].endswith(layer)


def test_the_proxy_ssl_header_is_a_header_and_a_value(monkeypatch):
    monkeypatch.delenv("PROXY_HEADER", raising=False)
    assert env_header_pair("PROXY_HEADER") is None
    monkeypatch.setenv("PROXY_HEADER", " HTTP_X_FORWARDED_PROTO , https ")
    assert env_header_pair("PROXY_HEADER") == ("HTTP_X_FORWARDED_PROTO", "https")
    for bad in ("https", "X_FORWARDED_PROTO,https", "HTTP_X_FORWARDED_PROTO,", "a,b,c"):
        monkeypatch.setenv("PROXY_HEADER", bad)
        with pytest.raises(ImproperlyConfiguredEnv, match="PROXY_HEADER="):
            env_header_pair("PROXY_HEADER")
