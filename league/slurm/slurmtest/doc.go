// Package slurmtest starts a real one-node Slurm cluster for tests: a private
// munged, slurmctld and slurmd as child processes of the test, with their
// configuration, key, sockets, state and logs in a temporary folder, so that
// the scripts package league/slurm writes are run by the sbatch of Debian's
// slurm-wlm (scripts/install/slurm.sh installs it) and not by a stand-in.
//
// The cluster runs as root in a sandbox without cgroup delegation:
// ProctrackType=proctrack/linuxproc, TaskPlugin=task/none, SlurmUser=root and
// no cgroup.conf. Where Slurm cannot start (not root, a daemon missing or
// exiting, the node never idle) Start fails the test with the reason and the
// daemons' logs; it never skips. Cleanup cancels every job, stops each daemon
// it started by its pid and checks that no process of the cluster (every one
// has the cluster's SLURM_CONF in its environment) is left. Should the test
// process itself be killed outright, the daemons get SIGTERM from their
// parent-death signal, but a running job's processes live on (slurmstepd
// detaches from slurmd): find them by that SLURM_CONF. Linux only.
package slurmtest
