#!/usr/bin/env bash
# What `make run` and `make test` need from the machine, installed with apt-get when it is
# missing (through sudo when not root). README.md lists the same packages; a test
# (tests/site/test_prerequisites.py) runs this with a fake apt-get and compares.
#
#   bash config/prerequisites.sh run     python3-venv, gettext, redis-server
#   bash config/prerequisites.sh test    the same, and postgresql, chromium
#
# PYTHON names the interpreter the virtual environment is made with (python3).
# PREREQ_ROOT is prefixed to the absolute paths looked at (tests point it at an empty
# folder, as on a machine without them).
set -euo pipefail

job=${1:-run}
python=${PYTHON:-python3}
root=${PREREQ_ROOT:-}

missing=()
# Debian's Python has no venv (ensurepip) without its own package.
"$python" -c "import ensurepip, venv" >/dev/null 2>&1 || missing+=(python3-venv)
command -v msgfmt >/dev/null || missing+=(gettext)  # compilemessages
command -v redis-server >/dev/null || missing+=(redis-server)
if [ "$job" = test ]; then
  compgen -G "$root/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null || missing+=(postgresql)
  [ -x "$root/usr/bin/chromium" ] || missing+=(chromium)  # browser tests
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ]; then
  apt=(apt-get)
elif command -v sudo >/dev/null; then
  apt=(sudo apt-get)
else
  echo "Missing ${missing[*]}: install with 'apt-get install ${missing[*]}' as root, then run make $job again." >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "Missing ${missing[*]} and there is no apt-get: install them, then run make $job again." >&2
  exit 1
fi
echo "Installing ${missing[*]} with apt-get"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet: update once when the first try fails.
"${apt[@]}" install -y -qq "${missing[@]}" >/dev/null 2>&1 || {
  "${apt[@]}" update -qq >/dev/null && "${apt[@]}" install -y -qq "${missing[@]}" >/dev/null
} || {
  echo "Could not install ${missing[*]} with apt-get: install them, then run make $job again." >&2
  exit 1
}
