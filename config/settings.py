"""Settings for the VOG Filler site.

Every value comes from an environment variable. The defaults are safe for production:
``DEBUG`` is off, and then a process refuses to start (one line naming the variable)
without ``SECRET_KEY`` or ``REDIS_URL``. ``make run`` sets ``DEBUG=1`` and a private Redis
(``REDIS_URL``) itself; production is configured by ``DATABASE_URL``, ``REDIS_URL``,
``SECRET_KEY``, ``ALLOWED_HOSTS`` and the e-mail variables (see docs/deploy.md).

Importing the settings connects to nothing and creates no folder: what writes under
``VOG_VAR_DIR`` makes its folder itself (config/run.py, manage.py, config/celery.py),
except the key of a ``DEBUG=1`` run without ``SECRET_KEY``, which is written where it is
read.
"""

import os
import secrets
import sys
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VOG_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def refuse(reason: str) -> None:
    """Stop the process (``manage.py``, Daphne, Celery alike) with one line on stderr."""
    sys.exit(f"Refusing to start: {reason}")


def _local_secret_key() -> str:
    """A key of this machine's own for local runs (never a public string): made once, kept
    in ``var/``."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        refuse("SECRET_KEY is required when DEBUG=0 (set it, or DEBUG=1 for a local run).")
    # Every process of one local run (Daphne, the workers) shares this key.
    SECRET_KEY = _local_secret_key()

# Django's test client asks for ``testserver``: the tests name it (config/test_settings.py).
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# Addresses (or networks) of the proxies in front of the site whose X-Forwarded-For and
# X-Forwarded-Proto are believed (config/edge.py); none by default.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "allauth",
    "allauth.account",
    "accounts",
    "ratings",
    "games",
    "lobby",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.headers.SecurityHeadersMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.BannedMemberMiddleware",
    "accounts.middleware.PreferredLanguageMiddleware",
    "config.errors.ButtonAddressPage",
]
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context_processors.site",
                "config.context_processors.member_warnings",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
# Lower-case names: the URLs hold passwords and are not settings (error pages never show
# them; see DEFAULT_EXCEPTION_REPORTER_FILTER for the settings built from them).
database_url = os.environ.get("DATABASE_URL", "")


def db_pool(value: str) -> bool | dict[str, int]:
    """``DB_POOL``: off (empty or ``0``), psycopg's pool with its sizes (``1``), or
    ``min,max`` connections per process.

    >>> db_pool("2,8")
    {'min_size': 2, 'max_size': 8}
    """
    parts = [part.strip() for part in value.split(",") if part.strip()]
    if parts in ([], ["0"]):
        return False
    if parts == ["1"]:
        return True
    if len(parts) == 2 and all(part.isdigit() for part in parts):
        low, high = (int(part) for part in parts)
        if 0 < low <= high:
            return {"min_size": low, "max_size": high}
    refuse(f"DB_POOL must be 0, 1 or min,max (e.g. 2,8), not {value!r}.")
    return False


if database_url:
    pool = db_pool(os.environ.get("DB_POOL", ""))
    DATABASES = {
        "default": dj_database_url.parse(
            # A pooled connection goes back to the pool after each request or call, so
            # Django must not keep it (Django refuses CONN_MAX_AGE with a pool).
            database_url,
            conn_max_age=0 if pool else int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        )
    }
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        # A statement or a lock wait that hangs must fail, not hold a socket's thread.
        DATABASES["default"]["OPTIONS"] = {
            "options": "-c statement_timeout={0} -c lock_timeout={0}".format(
                int(os.environ.get("DB_STATEMENT_TIMEOUT_MS", "5000"))
            ),
            # Parameters travel apart from the statement text, and a statement run five
            # times on a connection is prepared: PostgreSQL plans it once (the move path's
            # statements repeat on every move; docs/performance.md).
            # Behind a pooler in transaction mode, set DB_PREPARE_THRESHOLD empty (off).
            "server_side_binding": True,
            "prepare_threshold": int(os.environ.get("DB_PREPARE_THRESHOLD", "5") or 0) or None,
        }
        if pool:
            # psycopg's pool (Django 5.1+): a process's threads share a few connections
            # instead of each holding its own (docs/deploy.md, "PostgreSQL and Redis").
            DATABASES["default"]["OPTIONS"]["pool"] = pool
else:
    # WAL + IMMEDIATE transactions + a busy timeout: the web process and the Celery
    # worker share this file and must never fail on "database is locked".
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, cache, Celery broker -----------------------------------------
# ``redis://host:port/db`` or, for the private Redis of ``make run``, ``unix:///path.sock``.
redis_url = os.environ.get("REDIS_URL", "")
if not redis_url and not DEBUG:
    # Without it a process would get a channel layer, a cache and a broker of its own that
    # no other process hears: the worker's flags and game 2 would never reach a table.
    refuse("REDIS_URL is required when DEBUG=0 (the channel layer, cache and Celery broker).")
# The channel layer may run over several Redis servers: channels-redis shards channels and
# groups over its ``hosts`` (both layers), so losing one loses only its share of messages.
channel_redis_urls = env_list("CHANNEL_REDIS_URLS", redis_url)
# The layer is a choice (the load benchmark compares them), never a dotted path from the
# environment: settings import nothing an environment variable names.
CHANNEL_LAYER_CLASSES = {
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
    "core": "channels_redis.core.RedisChannelLayer",
}
_layer = os.environ.get("CHANNEL_LAYER_BACKEND", "pubsub")
if _layer not in CHANNEL_LAYER_CLASSES:
    sys.exit(f"CHANNEL_LAYER_BACKEND must be one of {', '.join(CHANNEL_LAYER_CLASSES)}.")
if redis_url:
    # The core layer holds a connection per waiting receive: its pool must outgrow the
    # sockets of a busy process (redis-py's default refused connections under load).
    redis_hosts = [
        {
            "address": url,
            "max_connections": int(os.environ.get("REDIS_MAX_CONNECTIONS", "1000")),
        }
        for url in channel_redis_urls
    ]
    CHANNEL_LAYERS = {
        "default": {"BACKEND": CHANNEL_LAYER_CLASSES[_layer], "CONFIG": {"hosts": redis_hosts}}
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            # A database of its own lets tests flush the cache without touching queues.
            "LOCATION": os.environ.get("REDIS_CACHE_URL", redis_url),
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "vog"),
        }
    }
    CELERY_BROKER_URL = redis_url.replace("unix://", "redis+socket://", 1)
else:
    # DEBUG=1 without Redis: one process only (a manage.py command, the tests that need no
    # servers). Nothing here reaches another process, so production refuses it above.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
CELERY_TASK_DEFAULT_QUEUE = "default"
# Clock expiry has its own queue so bot moves and rating recalculations never delay a flag.
# Every queue is declared in config/celery.py, so a worker started without -Q takes them all.
CELERY_TASK_ROUTES = {
    "games.tasks.match_tick": {"queue": "clocks"},
    "games.tasks.clocks_sweep": {"queue": "clocks"},
    "games.tasks.bot_*": {"queue": "bots"},
    "games.tasks.analysis_run": {"queue": "analysis"},
    "games.tasks.analysis_try": {"queue": "analysis_try"},
}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_BEAT_SCHEDULE = {
    # The safety nets: whatever a scheduled task or a web process missed.
    "clocks-sweep": {
        "task": "games.tasks.clocks_sweep",
        "schedule": env_float("CLOCKS_SWEEP_SECONDS", 5),
    },
    "presence-sweep": {
        "task": "games.tasks.presence_sweep",
        "schedule": env_float("PRESENCE_SWEEP_SECONDS", 15),
    },
    "challenges-expire": {"task": "lobby.tasks.challenges_expire", "schedule": 30.0},
    # What ends by itself without anyone's action (SPEC §3, §10).
    "deserted-end": {
        "task": "games.tasks.deserted_end",
        "schedule": env_float("DESERTED_SWEEP_SECONDS", 30),
    },
    "computer-turns-resume": {
        "task": "games.tasks.computer_turns_resume",
        "schedule": env_float("DESERTED_SWEEP_SECONDS", 30),
    },
    "analyses-resume": {"task": "games.tasks.analyses_resume", "schedule": 600.0},
    "rematches-lapse": {
        "task": "games.tasks.rematches_lapse",
        "schedule": env_float("DESERTED_SWEEP_SECONDS", 30),
    },
    "ratings-catch-up": {"task": "ratings.tasks.ratings_catch_up", "schedule": 60.0},
    "hosts-gone": {
        "task": "lobby.tasks.hosts_gone_withdraw",
        "schedule": env_float("HOSTS_GONE_SWEEP_SECONDS", 30),
    },
    # Arenas (SPEC §12): they start and end on time; schedules make the next day's.
    "arenas-advance": {
        "task": "lobby.tasks.arenas_advance",
        "schedule": env_float("ARENA_PAIRING_SECONDS", 5),
    },
    "arenas-schedule": {"task": "lobby.tasks.arenas_schedule", "schedule": 3600.0},
    # What the site keeps going by itself: VOG TV's computers, the demo's waiting table.
    "tv-match-keep": {
        "task": "games.tasks.tv_match_keep",
        "schedule": env_float("HOUSE_KEEP_SECONDS", 10),
    },
    "house-table-keep": {
        "task": "lobby.tasks.house_table_keep",
        "schedule": env_float("HOUSE_KEEP_SECONDS", 10),
    },
    # The names pages mark BOT (SPEC §15), should the cache have lost them.
    "bot-names": {"task": "lobby.tasks.bot_names_refresh", "schedule": 300.0},
}
# How often a running arena pairs its waiting entrants (SPEC §12: at most 5 s).
ARENA_PAIRING_SECONDS = env_float("ARENA_PAIRING_SECONDS", 5)

# --- Time at the tables -----------------------------------------------------------------
# Every duration is a setting so tests can shorten it. The tests' own settings
# (config/test_settings.py) also inject the time and shorten the clocks.
GAME_ABORT_SECONDS = env_float("GAME_ABORT_SECONDS", 30)  # no first move of game 1
GAME_NEXT_GAME_SECONDS = env_float("GAME_NEXT_GAME_SECONDS", 60)  # the break between games
GAME_ABANDON_SECONDS = env_float("GAME_ABANDON_SECONDS", 60)  # seat to move without a socket
GAME_IDLE_SECONDS = env_float("GAME_IDLE_SECONDS", 300)  # no-clock tables: no move for so long
GAME_REMATCH_SECONDS = env_float("GAME_REMATCH_SECONDS", 60)
# A table whose seated members all have had no present socket this long ends by itself.
GAME_DESERTED_SECONDS = env_float("GAME_DESERTED_SECONDS", 600)
# Each web process also looks at the tables it serves when their deadline comes (so a
# flag shows at once); tests turn it off to show the worker alone reaches the tables.
WEB_DEADLINE_TIMERS = env_bool("WEB_DEADLINE_TIMERS", True)
PRESENCE_EXPIRY_SECONDS = env_float("PRESENCE_EXPIRY_SECONDS", 45)
PRESENCE_PING_SECONDS = env_float("PRESENCE_PING_SECONDS", 20)  # pages ping this often
PRESENCE_COALESCE_SECONDS = env_float("PRESENCE_COALESCE_SECONDS", 1)

# --- What the site keeps going by itself ------------------------------------------------
# VOG TV (/tv/): when no member's public match is in play it shows a match of two
# computers that beat keeps going (games.services.house); each of their moves waits this
# long, a random moment between the two, so people can follow it.
TV_HOUSE_MATCH = env_bool("TV_HOUSE_MATCH", True)
TV_MOVE_MIN_SECONDS = env_float("TV_MOVE_MIN_SECONDS", 2)
TV_MOVE_MAX_SECONDS = env_float("TV_MOVE_MAX_SECONDS", 4)
# How long /tv/ shows a finished match before it moves on to the next one.
TV_NEXT_SECONDS = env_float("TV_NEXT_SECONDS", 5)
# The demo (make run): the computer hosts a table that waits for a member, opened again
# whenever a member took it (lobby.services.house). Off unless asked for.
HOUSE_TABLE = env_bool("HOUSE_TABLE", False)

# --- Tables and challenges (SPEC §10) ---------------------------------------------------
WAITING_PER_MEMBER = 3  # waiting tables and challenges a member holds at once
LOBBY_ACTIONS_PER_MINUTE = 10  # tables and challenges a member opens or cancels a minute
ARENA_ENTRIES_PER_MINUTE = 6  # arena joins and withdrawals of a member a minute
# Practice tables a member may have in play at once.
PRACTICE_TABLES_PER_MEMBER = 2
# Analysis (SPEC §13): analyses a member may ask for in an hour, and the most that may
# wait (queued or running) before a request is refused.
ANALYSIS_PER_HOUR = int(os.environ.get("ANALYSIS_PER_HOUR", "5"))
ANALYSIS_BACKLOG = int(os.environ.get("ANALYSIS_BACKLOG", "30"))
# Rated matches two members may play together in 24 hours; later ones are unrated.
RATED_MATCHES_PER_PAIR = int(os.environ.get("RATED_MATCHES_PER_PAIR", "10"))
CHALLENGE_SECONDS = env_float("CHALLENGE_SECONDS", 120)
# A waiting table whose host has had no socket on the site this long is withdrawn.
LOBBY_HOST_GONE_SECONDS = env_float("LOBBY_HOST_GONE_SECONDS", 120)

# --- Sockets ----------------------------------------------------------------------------
SOCKETS_PER_TABLE = int(os.environ.get("SOCKETS_PER_TABLE", "10"))  # per member
SOCKETS_PER_MEMBER = int(os.environ.get("SOCKETS_PER_MEMBER", "30"))
SOCKET_RATE = (int(os.environ.get("SOCKET_RATE", "30")), 10.0)  # messages per seconds
# Visitors (no member): sockets per address at one table and in all, sockets per table,
# and a smaller budget of messages.
VISITOR_SOCKETS_PER_TABLE = int(os.environ.get("VISITOR_SOCKETS_PER_TABLE", "10"))
VISITOR_SOCKETS = int(os.environ.get("VISITOR_SOCKETS", "30"))
VISITORS_PER_TABLE = int(os.environ.get("VISITORS_PER_TABLE", "300"))
VISITOR_SOCKET_RATE = (int(os.environ.get("VISITOR_SOCKET_RATE", "3")), 10.0)
CHAT_RATE = (5, 10.0)  # messages per seconds per member, a sliding window
# Sockets' database calls run on Django's thread for them (Channels'
# ``database_sync_to_async``); beyond DB_QUEUE_LIMIT members' actions waiting or running
# in a process, the next is refused at once with ``rate_limited``.
DB_QUEUE_LIMIT = int(os.environ.get("DB_QUEUE_LIMIT", "200"))

# --- Programs that play (SPEC §15, docs/bot-api.md) ------------------------------------
API_TOKENS_PER_MEMBER = 20  # tokens a member holds that are not revoked
# An API stream sends an empty line at least this often (SPEC: at most 7 s apart), and
# checks its token and its member's standing then: a revoked token or a ban ends it
# within this long even if the channel layer lost the message that says so.
BOT_KEEPALIVE_SECONDS = env_float("BOT_KEEPALIVE_SECONDS", 5)
# Messages a stream holds that it has not written yet; a stream that falls this far
# behind is ended (the client connects again and reads the state afresh).
BOT_STREAM_BACKLOG = int(os.environ.get("BOT_STREAM_BACKLOG", "200"))

# --- Members --------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_USERNAME_MIN_LENGTH = 3
# Failed logins per address; per name and address, and per name alone, in AccountAdapter.
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip"}
# Names that would pass for the site or its staff (checked without regard to case).
ACCOUNT_USERNAME_BLACKLIST = [
    "admin",
    "administrator",
    "root",
    "moderator",
    "moderators",
    "mod",
    "staff",
    "support",
    "help",
    "vog",
    "filler",
    "system",
    "official",
    "security",
    "api",
    "static",
    "ws",
    "deleted",
    "anonymous",
    "guest",
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
# Confirming the address in the browser that signed up logs the member in (allauth keeps
# the pending login in that browser's session; the link alone never logs anyone in).
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True

# --- E-mail ---------------------------------------------------------------------------
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
elif os.environ.get("EMAIL_FILE_PATH") or DEBUG:
    # A local run keeps its mails in var/mail/, readable at /dev/mail/ (the sign-up's
    # confirmation link among them); browser tests read them from their own folder.
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(VAR_DIR / "mail"))
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
# The local mailbox page, for DEBUG runs that deliver no mail.
LOCAL_MAILBOX = DEBUG and not EMAIL_HOST
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "VOG Filler <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's name in its mails (greeting, signature, subject); their links lead to the host
# the request came to (ALLOWED_HOSTS), never to a name.
SITE_NAME = os.environ.get("SITE_NAME", "VOG Filler")
ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{SITE_NAME}] "
# Where members write when something goes wrong (a mail that never came, a reset that
# fails): the account pages link it. Set it in production (docs/deploy.md).
CONTACT_EMAIL = os.environ.get("CONTACT_EMAIL", "contact@localhost")

# --- Languages ------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("bg", _("Bulgarian")),
    ("el", _("Greek")),
    ("pt", _("Portuguese")),
    ("nl", _("Dutch")),
    ("es", _("Spanish")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates as each language writes them where Django's locale data does not (config/formats).
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

# --- Static files ---------------------------------------------------------------------
STATIC_URL = "/static/"
# collectstatic makes it (config/run.py for a local run).
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- Security ---------------------------------------------------------------------------
# Sessions read from the cache (Redis) and written to both: a socket asks for its
# session before every action (games.sockets.MemberSocket.standing).
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# Daphne holds a whole request body in memory before Django sees it: the proxy's limit is
# the guard (docs/deploy.md); Django refuses anything larger than a form needs.
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200
# Error pages hide settings built from the database and Redis URLs (they hold passwords).
DEFAULT_EXCEPTION_REPORTER_FILTER = "config.headers.SecretsHidingFilter"
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    # Links in mails are https even if a request reached Daphne without the proxy's header.
    ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
