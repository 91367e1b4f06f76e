#!/usr/bin/env bash
# Installs what the Python client's tests need (clients/python, docs/python.md),
# the team-command tests (a small Python team, cmd/massim/testdata/pyteam) and
# the published site's browser tests (python3 -m http.server):
# python3, python3-venv (the install test makes a venv) and mypy (mypy --strict
# of the package), as Debian packages. Idempotent; quick when all are there.
set -euo pipefail
need=()
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v mypy >/dev/null 2>&1 || need+=(mypy)
# python3-venv: a venv without ensurepip cannot install anything.
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then need+=(python3-venv); fi
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
echo "install/python.sh: installing ${need[*]}" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
apt="apt-get -o DPkg::Lock::Timeout=600 -qq"
$sudo $apt update
$sudo env DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends "${need[@]}" >/dev/null
