#!/usr/bin/env bash
# The test command of the README: installs what the tests need (Chromium for
# the browser tests of the monitor), then runs every test with the race
# detector and each fuzz target briefly, and fails when they left the git
# tree dirty.
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

# tree_state lists what git sees changed or new in the working tree (what
# .gitignore covers is left out): git status's line and a hash of the
# file's content, so that a test writing into a file already changed before
# the run shows too.
tree_state() {
  git status --porcelain=v1 --untracked-files=all | while IFS= read -r line; do
    local path="${line:3}" hash=""
    if [ -f "$path" ]; then hash="$(git hash-object -- "$path")"; fi
    printf '%s\t%s\n' "$line" "$hash"
  done | LC_ALL=C sort
}

# check_clean fails when the tests left files in the tree or changed
# tracked ones: a test writes into its own temporary folder, and what the
# script writes on purpose (artifacts/) is in .gitignore. In CI, a fresh
# clone, the tree must be as clean after the run as before it; on a
# developer's machine only what changed during the run counts.
check_clean() {
  if [ "$git_tree" != yes ]; then return; fi
  local dirty
  dirty="$(LC_ALL=C comm -13 <(printf '%s\n' "$git_before") <(tree_state) | cut -f1)"
  if [ -n "$dirty" ]; then
    echo "test.sh: $1 left the git tree dirty (git status --porcelain):" >&2
    printf '%s\n' "$dirty" | sed 's/^/  /' >&2
    echo "test.sh: a test writes into its t.TempDir(); what is meant to stay goes into .gitignore" >&2
    exit 1
  fi
}

git_tree=no
if command -v git >/dev/null 2>&1 && top="$(git rev-parse --show-toplevel 2>/dev/null)" &&
  [ "$(cd "$top" && pwd -P)" = "$(pwd -P)" ]; then
  git_tree=yes
  git_before="$(tree_state)"
else
  echo "test.sh: not a git checkout of its own: the check that the tests leave the tree clean is skipped" >&2
fi

install_chromium
scripts/install/podman.sh
# The browser tests keep their screenshots (waiting view, end banner, legend,
# chart, phone, …) here for a person to look at.
export MASSIM_ARTIFACTS="${MASSIM_ARTIFACTS:-$PWD/artifacts/screenshots}"
mkdir -p "$MASSIM_ARTIFACTS"
scripts/install/python.sh
scripts/install/stunnel.sh
scripts/install/slurm.sh
go vet ./...
# One binary for whatever machine an organiser runs: every package must also
# build for Windows and macOS, not only for the system the tests run on.
for goos in windows darwin; do
  GOOS=$goos go build -o /dev/null ./...
done
go test -race -count=1 -timeout 30m ./...
check_clean "go test"

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
check_clean "fuzzing"
echo "test.sh: screenshots of the monitor in $MASSIM_ARTIFACTS"
