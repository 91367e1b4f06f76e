#!/usr/bin/env bash
# The test command of the README: installs what the tests need (Chromium for
# the browser tests of the monitor), then runs every test with the race
# detector and each fuzz target briefly.
set -euo pipefail
cd "$(dirname "$0")/.."

# A browser already on the machine is used as it is: $MASSIM_CHROMIUM, or
# chromium, chromium-browser or google-chrome on the PATH (the tests look in
# the same order). Only without one is Debian's chromium installed.
install_chromium() {
  if [ -n "${MASSIM_CHROMIUM:-}" ] && [ -x "$MASSIM_CHROMIUM" ]; then
    return
  fi
  for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then return; fi
  done
  echo "test.sh: installing Chromium (Debian package chromium) for the browser tests" >&2
  local sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  local apt="apt-get -o DPkg::Lock::Timeout=600 -qq"
  $sudo $apt update
  $sudo env DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends chromium >/dev/null
  command -v chromium >/dev/null 2>&1 || { echo "test.sh: Chromium did not install" >&2; exit 1; }
}

install_chromium
scripts/install/podman.sh
# The browser tests keep their screenshots (waiting view, end banner, legend,
# chart, phone, …) here for a person to look at.
export MASSIM_ARTIFACTS="${MASSIM_ARTIFACTS:-$PWD/artifacts/screenshots}"
mkdir -p "$MASSIM_ARTIFACTS"
scripts/install/python.sh
scripts/install/stunnel.sh
go vet ./...
# One binary for whatever machine an organiser runs: every package must also
# build for Windows and macOS, not only for the system the tests run on.
for goos in windows darwin; do
  GOOS=$goos go build -o /dev/null ./...
done
go test -race -count=1 -timeout 30m ./...

# Fuzz targets, briefly: their seed corpora already ran above as plain tests.
# The limit is a count of inputs, never a duration: a wall-clock limit
# fails on a busy machine (the fuzzing context's deadline passes while the
# workers still start up).
fuzztime="${FUZZTIME:-20000x}"
case "$fuzztime" in
  *x) ;;
  *) echo "test.sh: FUZZTIME must be a count such as 20000x, not a duration ($fuzztime)" >&2; exit 2 ;;
esac
go test -list '^Fuzz' ./... | awk '/^Fuzz/ {f = f " " $1} /^ok/ {if (f != "") print $2 f; f = ""}' |
while read -r pkg targets; do
  for fn in $targets; do
    echo "fuzz $pkg $fn ($fuzztime)"
    go test -run='^$' -fuzz="^${fn}\$" -fuzztime="$fuzztime" "$pkg"
  done
done
echo "test.sh: screenshots of the monitor in $MASSIM_ARTIFACTS"
