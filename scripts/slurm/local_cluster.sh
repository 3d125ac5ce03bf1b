#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for testing the Slurm job files at small scale
# (scripts/slurm_check.sh): Debian's Slurm 22.05 and MUNGE, the daemons started directly (no
# systemd: CI containers have none), every CPU of the machine in one partition `debug`.
#
#   scripts/slurm/local_cluster.sh [start]   install what is missing, write /etc/slurm/slurm.conf,
#                                            start munged, slurmctld, slurmd; wait for the node
#   scripts/slurm/local_cluster.sh stop      stop the three daemons (by their pid files)
#
# Idempotent: a second `start` leaves running daemons alone unless slurm.conf changed (then it
# restarts slurmctld and slurmd); a daemon that was killed is started again, and a restarted
# slurmctld starts with no jobs. Runs as root and so do the jobs (SlurmUser=root): fine for a
# throwaway local cluster, not for a shared one. Process tracking and task binding use no
# cgroups (proctrack/linuxproc, task/none), so it also works where cgroups are not delegated.
# Logs: /var/log/slurm/slurmctld.log, /var/log/slurm/slurmd.log, /var/log/munge/munged.log.
set -euo pipefail
cmd=${1:-start}
conf=/etc/slurm/slurm.conf
ctld_pid=/run/slurmctld.pid
slurmd_pid=/run/slurmd.pid
munge_pid=/run/munge/munged.pid

# Whether PIDFILE names a live process called NAME: a pid file outlives a killed daemon, whose pid
# may be reused, or which may stay a zombie for a while (seen here: still there 1 s after kill -9).
running() { # PIDFILE NAME
    [ -s "$1" ] || return 1
    local pid
    pid=$(cat "$1")
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] && ! grep -q '^State:[[:space:]]*[ZX]' "/proc/$pid/status" 2>/dev/null
}

stop_daemon() { # PIDFILE NAME
    if running "$1" "$2"; then
        local pid
        pid=$(cat "$1")
        kill "$pid"
        for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && { echo "$0: $2 (pid $pid) did not stop" >&2; exit 1; }
        echo "stopped $2 (pid $pid)"
    fi
    rm -f "$1"
}

if [ "$cmd" = stop ]; then
    stop_daemon "$slurmd_pid" slurmd
    stop_daemon "$ctld_pid" slurmctld
    stop_daemon "$munge_pid" munged
    exit 0
fi
if [ "$cmd" != start ]; then
    echo "usage: $0 [start|stop]" >&2
    exit 2
fi
if [ "$(id -u)" != 0 ]; then
    echo "$0: must run as root (installs packages, writes /etc/slurm, starts daemons)" >&2
    exit 2
fi

# Packages: the daemons, the client commands and MUNGE (slurmd pulls the basic plugins, which
# hold mpi/pmix and mpi/pmi2). Without recommends: slurm-wlm would add a dozen plugin packages.
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurmctld slurmd slurm-client munge >/dev/null
fi

# MUNGE: the package's postinst makes the key; make one if it is missing.
[ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /etc/munge/munge.key /run/munge /var/log/munge /var/lib/munge
chmod 0400 /etc/munge/munge.key
chmod 0755 /run/munge
if ! running "$munge_pid" munged; then
    # --force: start over a socket left by a munged that was killed.
    runuser -u munge -- /usr/sbin/munged --force
    echo "started munged"
fi
# (munge itself retries a refused connection for about 2 s before it fails.)
for _ in $(seq 1 50); do [ -S /run/munge/munge.socket.2 ] && break; sleep 0.1; done
munge -n </dev/null | unmunge >/dev/null || { echo "$0: munge does not work (see /var/log/munge/munged.log)" >&2; exit 1; }

# slurm.conf: this host as controller and the only node. The node line takes the CPUs and memory
# slurmd detects (`slurmd -C`), so Slurm never drains the node for a mismatch.
host=$(uname -n)
host=${host%%.*} # the short name, as slurmd reports it
node=$(slurmd -C | head -1)
case "$node" in "NodeName=$host "*) ;; *) echo "$0: unexpected \`slurmd -C\`: $node" >&2; exit 1;; esac
new=$(mktemp)
trap 'rm -f "$new"' EXIT
cat >"$new" <<EOF
# Written by scripts/slurm/local_cluster.sh: a one-node test cluster, daemons and jobs as root.
ClusterName=local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$ctld_pid
SlurmdPidFile=$slurmd_pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
if ! cmp -s "$new" "$conf"; then
    stop_daemon "$slurmd_pid" slurmd
    stop_daemon "$ctld_pid" slurmctld
    cp "$new" "$conf"
    chmod 0644 "$conf"
    echo "wrote $conf"
fi

# -c: start with no saved state. A controller that was killed (CI ends what a session left
# running) would otherwise recover its jobs as still running on the node and never free their
# CPUs (seen here: a job killed with the daemons held both CPUs, the next job stayed pending).
# A test cluster keeps no jobs across restarts.
if ! running "$ctld_pid" slurmctld; then
    slurmctld -c
    echo "started slurmctld"
fi
if ! running "$slurmd_pid" slurmd; then
    slurmd
    echo "started slurmd"
fi

# Wait until the controller answers and the node is idle (or mixed/allocated: jobs may run).
state=
for _ in $(seq 1 120); do
    state=$(sinfo -h -N -n "$host" -o %T 2>/dev/null || true)
    case "$state" in idle|mixed|allocated) break;; esac
    sleep 0.5
done
case "$state" in
    idle|mixed|allocated) ;;
    *) echo "$0: node $host is \`${state:-unreachable}\` after 60 s (see /var/log/slurm/)" >&2; exit 1;;
esac
sinfo
