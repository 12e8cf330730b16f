#!/usr/bin/env bash
# Run the whole suite against throwaway PostgreSQL and Redis on loopback ports with
# temporary data; stop them afterwards, whatever happens. Installs what the machine lacks
# first (config/prerequisites.sh).
#
#   bash tests/with_services.sh                    the whole suite (lint first), then the
#                                                  SQLite pass (SQLITE_PASS below)
#   bash tests/with_services.sh tests/games -x     a part of it (pytest's arguments);
#                                                  VOG_TEST_DATABASE=sqlite: on SQLite
#   bash tests/with_services.sh --run CMD ARGS     any command with the servers (benchmarks)
#   VOG_COVERAGE=1 bash tests/with_services.sh     the whole suite with a coverage report
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin

bash config/prerequisites.sh test

# The tests of what make run's SQLite must get right as PostgreSQL does (services, moves,
# clocks, presence, the lobby, ratings), run a second time against a SQLite file with the
# worker's and the web processes' own connections. Tests marked postgres are skipped there.
SQLITE_PASS=(
  tests/games/test_services.py
  tests/games/test_move_path.py
  tests/games/test_move_cost.py
  tests/games/test_concurrency.py
  tests/games/test_throughput.py
  tests/games/test_consumer.py
  tests/games/test_clocks.py
  tests/games/test_hardening.py
  tests/games/test_practice.py
  tests/games/test_rated.py
  tests/games/test_sockets_live.py
  tests/games/test_tasks.py
  tests/games/test_lingering.py
  tests/lobby
  tests/ratings/test_services.py
  tests/ratings/test_tasks.py
)

PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$PG_BIN" ] || { echo "PostgreSQL server binaries not found under /usr/lib/postgresql" >&2; exit 1; }
free_port() { "$BIN/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# From /, which postgres may enter (the checkout may be under /root).
as_postgres() { if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }

work=$(mktemp -d /tmp/vog-test.XXXXXX)
chmod 755 "$work"
pg_port=$(free_port)
redis_port=$(free_port)
redis_port_2=$(free_port)  # a second Redis: the channel layer sharded over two (the kill test)

stop_services() {
  as_postgres "$PG_BIN/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
  for pid in "$work/redis.pid" "$work/redis-2.pid"; do
    [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap stop_services EXIT

mkdir "$work/pg"
[ "$(id -u)" = 0 ] && chown postgres "$work/pg"
as_postgres "$PG_BIN/initdb" -D "$work/pg" -U postgres --auth=trust -E UTF8 >/dev/null
as_postgres "$PG_BIN/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w \
  -o "-p $pg_port -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null
redis-server --port "$redis_port" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
  --pidfile "$work/redis.pid" --dir "$work" --logfile "$work/redis.log"
redis-server --port "$redis_port_2" --bind 127.0.0.1 --daemonize yes --save '' --appendonly no \
  --pidfile "$work/redis-2.pid" --dir "$work" --logfile "$work/redis-2.log"
for port in "$redis_port" "$redis_port_2"; do
  for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
done

export DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/vog"
export REDIS_URL="redis://127.0.0.1:$redis_port/0"
export REDIS_CACHE_URL="redis://127.0.0.1:$redis_port/1"
# Only the processes the kill test starts shard their channel layer over both.
export REDIS_URL_2="redis://127.0.0.1:$redis_port_2/0"
export VOG_TEST_SERVICES=1
export DB_CONN_MAX_AGE=0  # threads (Celery worker, Daphne) must not keep test connections open
export VOG_VAR_DIR="$work/var"  # the tests make it (tests/conftest.py): settings make no folder
"$PG_BIN/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres vog

echo "PostgreSQL on 127.0.0.1:$pg_port, Redis on 127.0.0.1:$redis_port and :$redis_port_2"
if [ "${1:-}" = --run ]; then
  shift
  "$@"
  exit
fi
[ "${VOG_SKIP_LINT:-}" = 1 ] || make --no-print-directory lint
durations=(--durations=20 --durations-min=1)
if [ $# -gt 0 ]; then  # a chosen part of the suite: bash tests/with_services.sh tests/games -x
  if [ "${VOG_TEST_DATABASE:-}" = sqlite ]; then unset DATABASE_URL; fi
  "$BIN/python" -m pytest -p no:cacheprovider "$@"
else
  # The differential engine tests run on their own without coverage (tracing triples their
  # time), on both cores: pure computation, nothing shared between them.
  "$BIN/python" -m pytest -p no:cacheprovider -m differential -q -n 2 tests/engine
  # Coverage only when asked (VOG_COVERAGE=1): its tracing adds about 40 % to the pass.
  coverage=()
  [ "${VOG_COVERAGE:-}" = 1 ] && coverage=(--cov --cov-report=term:skip-covered)
  "$BIN/python" -m pytest "${coverage[@]}" -p no:cacheprovider \
    -m "not differential" "${durations[@]}"
  echo "The SQLite pass: ${SQLITE_PASS[*]}"
  (
    unset DATABASE_URL
    export VOG_TEST_DATABASE=sqlite VOG_VAR_DIR="$work/sqlite"
    "$BIN/python" -m pytest -p no:cacheprovider -q "${durations[@]}" "${SQLITE_PASS[@]}"
  )
fi
