#!/usr/bin/env bash
# Installs python3 (Debian package python3) for the tests of team commands,
# which run a small Python team (cmd/massim/testdata/pyteam), and for the
# published site's browser tests, served by python3 -m http.server.
# Idempotent: does nothing when python3 is already on the PATH.
set -euo pipefail
if command -v python3 >/dev/null 2>&1; then
  exit 0
fi
echo "install/python.sh: installing python3 (Debian package python3)" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
apt="apt-get -o DPkg::Lock::Timeout=600 -qq"
$sudo $apt update
$sudo env DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends python3 >/dev/null
command -v python3 >/dev/null 2>&1 || { echo "install/python.sh: python3 did not install" >&2; exit 1; }
