"""Gauntlet settings: one module, read from the environment.

Two ways to run (see docs/decisions/0005-settings-and-two-modes.md):

* embedded (``REDIS_URL`` unset): SQLite by default, Celery workers run as threads
  inside the server process with an in-memory broker, in-memory channel layer;
* scale-out (``REDIS_URL`` set): Redis is the Celery broker and the channel layer,
  and any number of ASGI and worker processes share PostgreSQL (``DATABASE_URL``).
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

from config.env import (
    ImproperlyConfiguredEnv,
    database_pool,
    env_bool,
    env_choice,
    env_header_pair,
    env_int,
    env_list,
    env_rate,
    parse_database_url,
    parse_redis_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)
_DEV_SECRET = "gauntlet-development-only-secret-key-change-me"
SECRET_KEY = os.environ.get("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfiguredEnv("SECRET_KEY must be set when DEBUG is off")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# HTTPS (docs/security.md). With DEBUG off every one defaults to the secure value, and
# `manage.py check --deploy` finds nothing to warn about; with DEBUG on (the embedded demo,
# plain http on 127.0.0.1) to the development one. Behind a proxy that ends TLS, set
# SECURE_PROXY_SSL_HEADER (as HTTP_X_FORWARDED_PROTO,https), or the redirect never ends.
_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", _SECURE)
SECURE_PROXY_SSL_HEADER = env_header_pair("SECURE_PROXY_SSL_HEADER")
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if _SECURE else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", _SECURE)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", _SECURE)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", _SECURE)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", _SECURE)
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "axes",
    "csp",
    "accounts",
    "tournaments",
    "drafting",
    "play",
    "notifications",
    "dashboard",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a locked-out log-in into its answer (accounts.lockout).
    "axes.middleware.AxesMiddleware",
]

# Content-Security-Policy (django-csp): the pages run only the site's own scripts and
# styles (static/), with no inline script, style or event handler and no eval; the API
# docs pages relax it for themselves (config.security). The middleware adds the
# websocket address of the request's own host to connect-src.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    },
]

DATABASES = {
    "default": parse_database_url(
        os.environ.get("DATABASE_URL", "sqlite:///var/gauntlet.sqlite3"), BASE_DIR
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
elif "pool" not in DATABASES["default"]["OPTIONS"]:
    # PostgreSQL: a pool of connections per process (see config.env.database_pool).
    DATABASES["default"]["OPTIONS"]["pool"] = database_pool()
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
EMBEDDED = not REDIS_URL
if REDIS_URL:
    parse_redis_url(REDIS_URL)

# Celery. Never eager: a task scheduled for later runs later, in embedded mode too.
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_IGNORE_RESULT = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes the database connections, and under prefork the whole
# connection pool, before and after every task unless this is set: each task would open
# new PostgreSQL connections. A worker process keeps its connection for this many tasks.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 100, minimum=0)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
if not REDIS_URL:
    # The in-memory broker is polled (every second by default): a move in embedded mode
    # waited up to a second for a worker thread to see it.
    CELERY_BROKER_TRANSPORT_OPTIONS["polling_interval"] = 0.05
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker (and beat) retries a lost broker for as long as it takes, every 30 s at most,
# rather than exiting after 100 tries (about 46 minutes): restarting it cannot help.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
if REDIS_URL:
    # kombu's Redis transport with a channel that also closes when Redis went away, so a
    # worker holding unacknowledged messages reconnects instead of exiting (see
    # config.celery.RedisChannel; tests/play/test_redis_restart_in_flight.py).
    CELERY_BROKER_TRANSPORT = "config.celery:RedisTransport"
    if REDIS_URL.startswith("rediss://") and "ssl_cert_reqs=" not in REDIS_URL:
        # kombu turns TLS on from the URL's scheme, which the line above overrides: ask
        # for it here, verifying the certificate as redis-py (the cache, the channel
        # layer) does for rediss:// by default.
        import ssl

        CELERY_BROKER_USE_SSL = {"ssl_cert_reqs": ssl.CERT_REQUIRED}
# On a lost broker connection a task being applied runs to its end and its work commits
# (its message is acknowledged, or comes back after the visibility timeout and changes
# nothing) rather than being killed half-way, as Celery 6 will do by default.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
CELERY_TIMEZONE = "UTC"
EMBEDDED_WORKER_THREADS = env_int("EMBEDDED_WORKER_THREADS", 4, minimum=1)
# The sweep (tournaments.sweeps, every app's steps): every PLAY_SWEEP_SECONDS it re-queues work whose task was
# lost, once it is PLAY_STALL_SECONDS late. Redis mode: run `celery -A config beat` (or a
# worker with -B); embedded mode runs it on a timer of the process (config.embedded).
PLAY_SWEEP_SECONDS = env_int("PLAY_SWEEP_SECONDS", 15, minimum=1)
PLAY_STALL_SECONDS = env_int("PLAY_STALL_SECONDS", 30, minimum=1)
# Notices (notifications/, docs/decisions/0059-notifications.md): players without a
# decklist hear NOTIFY_DECKLIST_LEAD_MINUTES before the lists are due; the beat looks
# every NOTIFY_SCAN_SECONDS (embedded mode: the sweep queues the same task).
NOTIFY_DECKLIST_LEAD_MINUTES = env_int("NOTIFY_DECKLIST_LEAD_MINUTES", 60, minimum=1)
NOTIFY_SCAN_SECONDS = env_int("NOTIFY_SCAN_SECONDS", 300, minimum=10)
CELERY_BEAT_SCHEDULE = {
    "sweep-lost-work": {
        "task": "tournaments.tasks.sweep",
        "schedule": float(PLAY_SWEEP_SECONDS),
        "options": {"expires": float(PLAY_SWEEP_SECONDS)},
    },
    "remind-decklists": {
        "task": "notifications.tasks.remind_decklists",
        "schedule": float(NOTIFY_SCAN_SECONDS),
        "options": {"expires": float(NOTIFY_SCAN_SECONDS)},
    },
}

CHANNEL_LAYER_KINDS = ("pubsub", "lists")
CHANNEL_LAYER_KIND = env_choice("CHANNEL_LAYER", "pubsub", CHANNEL_LAYER_KINDS)
if REDIS_URL and CHANNEL_LAYER_KIND == "pubsub":
    # Redis publish/subscribe (docs/decisions/0023-one-push-per-move-over-pubsub.md): a group
    # send is one PUBLISH, and each process holds one subscription that Redis pushes the
    # messages into.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL}],
                "prefix": os.environ.get("CHANNELS_PREFIX", "gauntlet"),
            },
        }
    }
elif REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py's default 5 s read timeout equals channels-redis' blocking
            # read, which would kill every idle websocket after 5 s.
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": None}],
                "prefix": os.environ.get("CHANNELS_PREFIX", "gauntlet"),
                # channels-redis drops messages beyond 100 waiting per channel; a busy
                # draft or game group under load needs more headroom than that.
                "capacity": env_int("CHANNELS_CAPACITY", 1000, minimum=100),
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_PREFIX", "gauntlet"),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
if "pytest" in sys.modules or env_bool("FAST_PASSWORD_HASHER", False):
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Log-in throttling (django-axes, docs/security.md): LOGIN_FAILURE_LIMIT failed log-ins
# for one username from one address lock that pair out for LOGIN_COOLOFF_MINUTES after the
# last of them, on the log-in page, the admin's and /api/token/ alike; attempts while
# locked out are refused without being counted. Staff see and delete lockouts in the
# admin ("Access attempts"). The address is REMOTE_ADDR: behind a proxy, let the ASGI
# server take the client's address from the proxy's header (uvicorn --proxy-headers).
# axes' backend first: it refuses a locked-out pair before any password is checked, and
# (AxesBackend rather than AxesStandaloneBackend) also loads users as ModelBackend does, so
# a session naming the first backend (force_login, hand-made test and bench sessions) works.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_DISABLE_ACCESS_LOG = True  # failures are kept (for the lockouts), not every log-in

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:event_list"
LOGOUT_REDIRECT_URL = "tournaments:event_list"

# E-mail (notices): printed to the console unless EMAIL_HOST is set, then sent over SMTP.
# SITE_URL is the address the e-mails link to.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
if EMAIL_USE_SSL:
    EMAIL_USE_TLS = False  # Django refuses both at once; implicit TLS wins when asked for
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Gauntlet <noreply@localhost>")
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "var" / "staticfiles"
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "tournaments.pagination.Pages",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "tournaments.api.exception_handler",
    # Requests per client (config.throttles): anonymous ones by address, logged-in ones by
    # user, /api/token/ by address on its own budget too. Counted in the default cache,
    # which Redis is in Redis mode (shared by every process) and local memory otherwise.
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttles.AnonThrottle",
        "config.throttles.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_rate("API_THROTTLE_ANON", "120/min"),
        "user": env_rate("API_THROTTLE_USER", "600/min"),
        "token": env_rate("API_THROTTLE_TOKEN", "10/min"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Gauntlet API",
    "DESCRIPTION": "Events, registrations, rounds, pairings, results and standings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No badge fetched from validator.swagger.io: the docs page loads nothing from elsewhere.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
        # Failed requests and tasks, kept for the staff dashboard (dashboard/errors.py).
        "error_records": {"class": "dashboard.errors.ErrorRecordHandler", "level": "ERROR"},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        "gauntlet": {
            "level": os.environ.get("LOG_LEVEL", "INFO"),
            "handlers": ["error_records"],
            "propagate": True,
        },
        "django.request": {"handlers": ["error_records"], "propagate": True},
        "celery.app.trace": {"handlers": ["error_records"], "propagate": True},
    },
}
