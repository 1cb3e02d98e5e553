#!/usr/bin/env bash
# CI on a real Slurm: a one-node cluster started here (munged, slurmctld, slurmd from Debian's
# slurm-wlm and munge, every file under a temporary directory, /etc untouched), a 5×5 atlas
# run by atlas-slurm.sh as a 4-task job array over all its rounds, with task 2 of round 2
# killed (SIGKILL) once in the middle of its share and resubmitted, and the merged atlas
# compared byte for byte (show --json, atlas.parquet, atlas_games.parquet) with a 1-shard run.
# A task run again after the end must change nothing either. Then `ponte annotate` of the
# sample data's people's games by annotate-slurm.sh, 4 tasks and a merge job, against one
# run. The daemons are stopped by their pids on exit. Runs as root (apt-get and the daemons;
# through sudo when it is not); `.ci/run` calls it.
#
#   ci-slurm.sh [PONTE]      PONTE: a built ponte (else one is built from this checkout)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
start=$(date +%s.%N)
if [ "$(id -u)" -ne 0 ]; then
  # It installs packages and starts the daemons: as root.
  if [ -z "${1:-}" ]; then
    go build -o /tmp/ponte-ci-slurm ./cmd/ponte
    set -- /tmp/ponte-ci-slurm
  fi
  exec sudo --preserve-env=PATH,PONTE_SLURM_PORT "$0" "$(realpath "$1")"
fi
since() { awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f s", b - a }'; }

echo "== slurm: install slurm-wlm and munge"
if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null || ! command -v munged > /dev/null; then
  apt-get update -qq > /dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge > /dev/null
fi
slurmctld -V

tmp=$(mktemp -d /tmp/ponte-slurm.XXXXXX)
chmod 755 "$tmp" # munged wants its socket's directories searchable by all
stop() {
  local status=$? pid f
  if [ -e "$tmp/slurm.conf" ]; then
    SLURM_CONF=$tmp/slurm.conf squeue -h -o %i 2> /dev/null | xargs -r env SLURM_CONF="$tmp/slurm.conf" scancel 2> /dev/null || true
  fi
  for f in slurmd slurmctld munged; do
    [ -s "$tmp/$f.pid" ] || continue
    pid=$(cat "$tmp/$f.pid")
    kill "$pid" 2> /dev/null || continue
    for _ in $(seq 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2> /dev/null; then
      echo "$f (pid $pid) did not stop on SIGTERM: killed" >&2
      kill -KILL "$pid" 2> /dev/null || true
    fi
  done
  if [ "$status" -ne 0 ]; then
    echo "-- the daemons' logs:" >&2
    tail -n 20 "$tmp"/log/*.log >&2 2> /dev/null || true
  fi
  rm -rf "$tmp"
  exit "$status"
}
trap stop EXIT

ponte=${1:-}
if [ -z "$ponte" ]; then
  go build -o "$tmp/ponte" ./cmd/ponte
  ponte=$tmp/ponte
fi
ponte=$(realpath "$ponte")

echo "== slurm: a one-node cluster: munged, slurmctld, slurmd"
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
chmod 755 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2> /dev/null
chmod 400 "$tmp/munge/munge.key"
munged --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" --pid-file="$tmp/munged.pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/munged.seed"
host=$(hostname -s)
port=${PONTE_SLURM_PORT:-6817} # slurmctld's; slurmd's is the next
cat > "$tmp/slurm.conf" << EOF
ClusterName=ponte-ci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
# No cgroups needed: processes tracked by their parents, no task binding.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
# No accounting: the scripts keep their own marks.
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
KillWait=5
# Jobs start as soon as they can (by default batch jobs wait up to 3 s to be started together).
SchedulerParameters=batch_sched_delay=0
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
grep -v '^#' "$SLURM_CONF"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 150); do
  [ "$(sinfo -h -o %t 2> /dev/null)" = idle ] && break
  sleep 0.2
done
sinfo
[ "$(sinfo -h -o %t)" = idle ] || { echo "the node is not idle"; exit 1; }
echo "the cluster is up after $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"

echo "== slurm: a 5×5 atlas as a 4-task array per round, task 2 of round 2 killed once ($(since))"
flags=(--size 5 --bot sage-10 --first 4 --max 16 --confirm 8 --candidates 2)
"$ponte" atlas run --db "$tmp/one.db" --workers 1 --quiet "${flags[@]}" > /dev/null 2>&1
# The tasks' ponte: the first `atlas run --shard 2/4` of round 2 is killed with SIGKILL once
# its shard has stored a game of the round (its WAL has grown past the schema's pages).
cat > "$tmp/ponte-killed-once" << EOF
#!/usr/bin/env bash
if [ "\$1 \$2" = "atlas run" ] && [[ " \$* " == *" --shard 2/4 "* ]] && [ -e "$tmp/run/round-2" ] \\
  && [ ! -e "$tmp/run/round-3" ] && mkdir "$tmp/killed" 2> /dev/null; then
  "$ponte" "\$@" & pid=\$!
  while kill -0 \$pid 2> /dev/null && [ "\$(stat -c %s "$tmp/run/shard-2.db-wal" 2> /dev/null || echo 0)" -lt 20000 ]; do
    sleep 0.01
  done
  kill -KILL \$pid
  wait \$pid
  exit 137
fi
exec "$ponte" "\$@"
EOF
chmod +x "$tmp/ponte-killed-once"
set +e
scripts/cluster/atlas-slurm.sh --dir "$tmp/run" --shards 4 --ponte "$tmp/ponte-killed-once" --wait -- "${flags[@]}" 2> "$tmp/first.err"
status=$?
set -e
cat "$tmp/first.err"
if [ "$status" -ne 1 ] || [ ! -d "$tmp/killed" ] || ! grep -q "^round 2 stopped before its merge: round 2: tasks done 1,3,4 of 4" "$tmp/first.err"; then
  echo "the killed task should have stopped round 2 before its merge (exit status $status, want 1)"; exit 1
fi
echo "-- resubmitted:"
scripts/cluster/atlas-slurm.sh --dir "$tmp/run" --wait
echo "-- task 2 of round 2, its two attempts (the first killed):"
cat "$tmp/run/log/round-2-task-2.out"
"$ponte" atlas show --db "$tmp/one.db" --json --parquet "$tmp/pq-one" > "$tmp/one.json"
"$ponte" atlas show --db "$tmp/run/atlas.db" --json --parquet "$tmp/pq-run" > "$tmp/run.json"
grep -q '"done":true' "$tmp/one.json"
for f in one.json pq-one/atlas.parquet pq-one/atlas_games.parquet; do
  cmp "$tmp/$f" "$tmp/${f//one/run}"
done
echo "4 shards on Slurm, a task killed and resubmitted = 1 shard: byte for byte ($(wc -c < "$tmp/one.json") bytes of JSON)"

echo "== slurm: a task of the last round run again, and merged again, changes nothing ($(since))"
r=$(cat "$tmp/run/round")
job=$(sbatch --parsable --array=3 --output="$tmp/run/log/again-%a.out" \
  --wrap="bash '$repo/scripts/cluster/atlas-slurm.sh' task '$tmp/run' $r && '$ponte' atlas merge --db '$tmp/run/atlas.db' '$tmp'/run/shard-*.db > /dev/null")
while [ -n "$(squeue -h -o %i -j "${job%%;*}" 2> /dev/null)" ]; do sleep 0.2; done
cat "$tmp/run/log/again-3.out"
grep -q "^$tmp/run/shard-3.db: 0 games stored by this run" "$tmp/run/log/again-3.out"
"$ponte" atlas show --db "$tmp/run/atlas.db" --json --parquet "$tmp/pq-again" > "$tmp/again.json"
cmp "$tmp/one.json" "$tmp/again.json"
cmp "$tmp/pq-one/atlas_games.parquet" "$tmp/pq-again/atlas_games.parquet"
echo "== slurm: ponte annotate as a 4-task array and a merge job = 1 shard ($(since))"
"$ponte" ingest --db "$tmp/games.db" --no-parquet sample_data 2> /dev/null
annotate=(--budget 10 --population people)
cp "$tmp/games.db" "$tmp/games-one.db"
mkdir "$tmp/pq-annotate-one" "$tmp/pq-annotate-run"
"$ponte" annotate --db "$tmp/games-one.db" --parquet "$tmp/pq-annotate-one" --workers 1 --quiet "${annotate[@]}"
scripts/cluster/annotate-slurm.sh --dir "$tmp/annotate" --shards 4 --db "$tmp/games.db" --ponte "$ponte" --wait -- "${annotate[@]}"
"$ponte" annotate --db "$tmp/games.db" --parquet "$tmp/pq-annotate-run" --quiet "${annotate[@]}"
cmp "$tmp/pq-annotate-one/turn_evals.parquet" "$tmp/pq-annotate-run/turn_evals.parquet"
echo "4 shards on Slurm = 1 shard: turn_evals.parquet byte for byte ($(wc -c < "$tmp/pq-annotate-one/turn_evals.parquet") bytes)"
echo "the Slurm test passed in $(since)"
