#!/usr/bin/env bash
# python3 for the tests that need a plain static file server that is not
# ours (python3 -m http.server: the published site's browser tests) and for
# Python sample code; Debian's python3 when there is none. Idempotent.
set -euo pipefail
if command -v python3 >/dev/null 2>&1; then
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
apt="apt-get -o DPkg::Lock::Timeout=600 -qq"
$sudo $apt update
$sudo env DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends python3 >/dev/null
command -v python3 >/dev/null 2>&1 || { echo "install/python.sh: python3 did not install" >&2; exit 1; }
