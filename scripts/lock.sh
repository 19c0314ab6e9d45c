#!/usr/bin/env bash
# The lock: constraints.txt pins every package the README's two commands install (runtime and test),
# compiled from pyproject.toml's ranges by uv's resolver, never by hand.
#
#   scripts/lock.sh            what a refresh would change: compile the newest versions the ranges
#                              allow, print the difference, install them in a throwaway virtualenv and
#                              run the README's test command there. constraints.txt is left as it is.
#   scripts/lock.sh --diff     only the difference, without the suite.
#   scripts/lock.sh --write    the refresh itself: rewrite constraints.txt with the newest versions
#                              (run the first form before, and commit the lock with the fixes it needs).
#   scripts/lock.sh --same     rewrite constraints.txt keeping every pin it can (after a range changes
#                              in pyproject.toml, or a new dependency).
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:---check}"
case "$mode" in --check|--diff|--write|--same) ;; *) echo "usage: scripts/lock.sh [--check|--diff|--write|--same]" >&2; exit 2;; esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if command -v uv >/dev/null 2>&1; then
    uv=uv
else
    python3 -m venv "$work/tools"
    "$work/tools/bin/pip" install -q uv
    uv="$work/tools/bin/uv"
fi

compile() {   # compile(output, extra flags...)
    local out="$1"; shift
    "$uv" pip compile pyproject.toml --extra test --universal --python-version 3.11 -q \
        --custom-compile-command "scripts/lock.sh --write" "$@" -o "$out"
}

case "$mode" in
    --write) compile constraints.txt --upgrade; git --no-pager diff --stat -- constraints.txt; exit 0;;
    --same)  compile constraints.txt; git --no-pager diff --stat -- constraints.txt; exit 0;;
esac

cp constraints.txt "$work/new.txt"
compile "$work/new.txt" --upgrade
echo "== what a refresh would change (constraints.txt -> newest allowed):"
if diff <(grep -E '^[A-Za-z]' constraints.txt) <(grep -E '^[A-Za-z]' "$work/new.txt"); then
    echo "nothing: the lock is up to date"
fi
[ "$mode" = --diff ] && exit 0
echo "== the README's test command on the refreshed versions, in a throwaway virtualenv:"
python3 -m venv "$work/venv"
# shellcheck disable=SC1091
. "$work/venv/bin/activate"
python -m pip install -q --upgrade pip
pip install -q -c "$work/new.txt" -e ".[test]" && ruff check . && mypy && python -m pytest
