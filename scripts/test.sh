#!/usr/bin/env bash
# The test command of the README: installs what the tests need (Chromium for
# the browser tests of the monitor), then runs every test with the race
# detector and each fuzz target briefly.
set -euo pipefail
cd "$(dirname "$0")/.."

install_chromium() {
  if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    return
  fi
  echo "test.sh: installing Chromium (Debian package chromium) for the browser tests" >&2
  local sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  local apt="apt-get -o DPkg::Lock::Timeout=600 -qq"
  $sudo $apt update
  $sudo env DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends chromium >/dev/null
  command -v chromium >/dev/null 2>&1 || { echo "test.sh: Chromium did not install" >&2; exit 1; }
}

install_chromium
go vet ./...
go test -race -count=1 -timeout 30m ./...

# Fuzz targets, briefly: their seed corpora already ran above as plain tests.
fuzztime="${FUZZTIME:-10s}"
go test -list '^Fuzz' ./... | awk '/^Fuzz/ {f = f " " $1} /^ok/ {if (f != "") print $2 f; f = ""}' |
while read -r pkg targets; do
  for fn in $targets; do
    echo "fuzz $pkg $fn ($fuzztime)"
    go test -run='^$' -fuzz="^${fn}\$" -fuzztime="$fuzztime" "$pkg"
  done
done
