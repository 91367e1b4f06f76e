#!/usr/bin/env bash
# Installs stunnel (Debian package stunnel4) for the test that plays a match
# through it to a TLS agent port (server/stunnel_test.go), as docs/protocol.md,
# "TLS", tells teams whose clients cannot speak TLS. Idempotent; quick when
# stunnel is already there.
set -euo pipefail
if command -v stunnel >/dev/null 2>&1 || command -v stunnel4 >/dev/null 2>&1; then
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
apt="apt-get -o DPkg::Lock::Timeout=600 -qq"
echo "install/stunnel.sh: installing stunnel4" >&2
$sudo $apt update
$sudo env DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends stunnel4 >/dev/null
command -v stunnel >/dev/null 2>&1 || command -v stunnel4 >/dev/null 2>&1 || { echo "install/stunnel.sh: stunnel did not install" >&2; exit 1; }
