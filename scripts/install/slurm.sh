#!/usr/bin/env bash
# Installs what the one-node Slurm of the league tests needs (league/slurm/slurmtest):
# Debian's slurm-wlm (slurmctld, slurmd and the client commands) and munge.
# Idempotent and quick when both are already there. Needs root (or sudo) for apt-get.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }
if have slurmctld && have slurmd && have sbatch && have munged; then
  exit 0
fi
echo "install/slurm.sh: installing Debian's slurm-wlm and munge for the Slurm tests" >&2
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
apt="apt-get -o DPkg::Lock::Timeout=600 -qq"
$sudo $apt update
$sudo env DEBIAN_FRONTEND=noninteractive $apt install -y --no-install-recommends slurm-wlm munge >/dev/null
for b in slurmctld slurmd sbatch munged; do
  have "$b" || { echo "install/slurm.sh: $b did not install" >&2; exit 1; }
done
