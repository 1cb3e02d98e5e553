#!/usr/bin/env bash
# `ponte annotate` on a Slurm cluster: a job array of N tasks (task i reads the games of
# --shard i/N in its own copy of the database and writes its rows to its own
# turn_evals.parquet), and a merge job that waits for the whole array (--dependency=afterok)
# and adds every shard's rows to the database with --merge. Everything lives in one
# directory on storage that every node sees; the database is only read until the merge.
#
#   annotate-slurm.sh --dir DIR --shards N --db PONTE.db [--ponte PATH] [--cpus C] [--sbatch OPT]... [--wait] -- ANNOTATE FLAGS
#   annotate-slurm.sh --dir DIR [--wait]     resume: submit the tasks without their mark, and the merge
#   annotate-slurm.sh --dir DIR --status     the tasks done and the jobs in the queue
#
# A task that fails leaves the merge unrun (it is cancelled with it). Run the script again
# with the same --dir: a task run again keeps the games its copy has read (annotate leaves
# alone the games the same budget has read), and --merge leaves out the rows the database
# holds: nothing is counted twice. docs/cluster.md has the recipe.
set -euo pipefail

self=$(realpath "$0")

die() { echo "annotate-slurm.sh: $*" >&2; exit 2; }

# shellcheck source=lib.sh
source "$(dirname "$self")/lib.sh"

submit() {
  submit_array annotate "$dir" ""
  echo "tasks ${missing[*]:-none} (job ${arr:-none}), merge job $merge"
}

# task reads shard SLURM_ARRAY_TASK_ID in its own copy of the database.
task() {
  local i=$SLURM_ARRAY_TASK_ID
  local db="$dir/shard-$i.db" pq="$dir/shard-$i.parquet"
  if [ ! -e "$dir/start-$i" ]; then
    rm -rf "$db" "$db-wal" "$db-shm" "$pq"
    cp "$db_path" "$db.tmp" && mv "$db.tmp" "$db"
    mkdir -p "$pq"
    touch "$dir/start-$i"
  fi
  "$ponte" annotate --db "$db" --shard "$i/$shards" --parquet "$pq" --workers "$cpus" --quiet "${flags[@]}"
  touch "$dir/ok-$i"
}

# merge adds every shard's rows to the database.
merge() {
  local args=() i
  for ((i = 1; i <= shards; i++)); do
    args+=(--merge "$dir/shard-$i.parquet/turn_evals.parquet")
  done
  "$ponte" annotate --db "$db_path" "${args[@]}" --quiet "${flags[@]}"
  touch "$dir/done"
  echo "merged: $db_path holds the rows of the $shards shards"
}

case "${1:-}" in
  task | merge)
    what=$1 dir=$2
    load "start one with --shards N --db DB -- FLAGS"
    "$what"
    exit 0
    ;;
esac

dir= shards= db_path= ponte= cpus=1 wait=0 status=0 sbatch_opts=() flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --shards) shards=$2; shift 2 ;;
    --db) db_path=$2; shift 2 ;;
    --ponte) ponte=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --sbatch) sbatch_opts+=("$2"); shift 2 ;;
    --wait) wait=1; shift ;;
    --status) status=1; shift ;;
    --) shift; flags=("$@"); break ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1 (annotate's flags go after --)" ;;
  esac
done
[ -n "$dir" ] || die "--dir DIR is needed"

if [ ! -e "$dir/settings.sh" ]; then
  [ -n "$shards" ] && [ -n "$db_path" ] || die "$dir: a new run needs --shards N and --db PONTE.db"
  [[ "$shards" =~ ^[1-9][0-9]*$ && "$cpus" =~ ^[1-9][0-9]*$ ]] || die "--shards and --cpus: a number from 1"
  [ -f "$db_path" ] || die "--db $db_path: no such database (ponte ingest makes one)"
  [ -n "$ponte" ] || ponte=$(command -v ponte) || die "no ponte on PATH: name it with --ponte"
  mkdir -p "$dir"
  dir=$(realpath "$dir")
  ponte=$(realpath "$ponte")
  db_path=$(realpath "$db_path")
  declare -p shards db_path ponte cpus sbatch_opts flags | sed 's/^declare /declare -g /' > "$dir/settings.sh"
  : > "$dir/jobs"
  load "start one with --shards N --db DB -- FLAGS"
  submit
else
  [ -z "$shards" ] && [ -z "$db_path" ] && [ ${#flags[@]} -eq 0 ] || die "$dir holds a run already: resume it with --dir alone"
  dir=$(realpath "$dir")
  load "start one with --shards N --db DB -- FLAGS"
  if [ "$status" = 1 ]; then
    ok=$(ls "$dir" | sed -n 's/^ok-//p' | sort -n | paste -sd, -)
    echo "tasks done ${ok:-none} of $shards; merged: $([ -e "$dir/done" ] && echo yes || echo no);" \
      "jobs in the queue: $(queued | paste -sd, - | sed 's/^$/none/')"
    exit 0
  fi
  if [ -e "$dir/done" ]; then
    echo "merged already: $db_path"
  elif [ -n "$(queued)" ]; then
    echo "its jobs are still in the queue ($(queued | paste -sd, -)): not submitted again"
  else
    submit
  fi
fi

[ "$wait" = 1 ] || exit 0
while [ -n "$(queued)" ]; do sleep 1; done
if [ -e "$dir/done" ]; then
  echo "merged: $db_path"
  exit 0
fi
echo "stopped before the merge: $("$0" --dir "$dir" --status)" >&2
echo "see $dir/log/*.out; run again with --dir $dir to resubmit what it lacks" >&2
exit 1
