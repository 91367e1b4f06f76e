#!/usr/bin/env bash
# The container test (internal/container) builds and runs the repository's
# Dockerfile with Debian's podman, rootful. No image registry is reachable
# here, so this also builds the image that replaces the build stage's base
# (Dockerfile, GO_IMAGE): a root file system of this machine's release from
# debootstrap, taken from the mirror this machine's apt uses
# (aptsources.sh), with this machine's Go toolchain and CA certificates,
# imported as $MASSIM_BUILD_BASE. Idempotent: each step is skipped when done.
set -euo pipefail
. "$(dirname "$0")/aptsources.sh"

base="${MASSIM_BUILD_BASE:-localhost/massim-go-build-base:$(go env GOVERSION)}"
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
apt="apt-get -o DPkg::Lock::Timeout=600 -qq"

need=""
for cmd in podman runc debootstrap; do
  command -v "$cmd" >/dev/null 2>&1 || need="$need $cmd"
done
if [ -n "$need" ]; then
  echo "install/podman.sh: installing podman, runc, debootstrap (missing:$need)" >&2
  $sudo $apt update
  $sudo env DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends \
    podman runc debootstrap uidmap >/dev/null
fi

# A sandbox without cgroup delegation or systemd: cgroupfs, runc, and no
# default ulimits (raising them is refused here).
conf=/etc/containers/containers.conf
if ! grep -q 'massim-go' "$conf" 2>/dev/null; then
  $sudo mkdir -p /etc/containers
  $sudo tee "$conf" >/dev/null <<'CONF'
# written by massim-go's scripts/install/podman.sh
[containers]
default_ulimits = []

[engine]
cgroup_manager = "cgroupfs"
runtime = "runc"
CONF
fi

if $sudo podman image exists "$base"; then
  exit 0
fi
suite="$(apt_suite)" || {
  echo "install/podman.sh: /etc/os-release names no VERSION_CODENAME: which release to debootstrap for the build-stage base is unknown" >&2
  exit 1
}
mirror="$(apt_mirror "$suite")" || {
  echo "install/podman.sh: none of this machine's apt sources serves $suite (deb lines in /etc/apt/sources.list and /etc/apt/sources.list.d/*.list, Types: deb paragraphs in /etc/apt/sources.list.d/*.sources, with an http, https, ftp or file URI): debootstrap has no mirror for the build-stage base" >&2
  exit 1
}
echo "install/podman.sh: building the build-stage base $base (debootstrap $suite from $mirror + Go $(go env GOVERSION))" >&2
work=$(mktemp -d)
trap '$sudo rm -rf "$work"' EXIT
$sudo debootstrap --variant=minbase --include=ca-certificates "$suite" "$work/root" \
  "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -20 "$work/debootstrap.log" >&2
  exit 1
}
$sudo cp -a "$(go env GOROOT)" "$work/root/usr/local/go"
# The machine's trust roots: the module proxy may be reached through a
# proxy whose certificate only this machine's bundle holds.
$sudo cp /etc/ssl/certs/ca-certificates.crt "$work/root/etc/ssl/certs/ca-certificates.crt"
$sudo rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"*
$sudo tar -C "$work/root" -c . | $sudo podman import \
  --change 'ENV PATH=/usr/local/go/bin:/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV GOPATH=/go' - "$base" >/dev/null
echo "install/podman.sh: $base ready" >&2
