#!/usr/bin/env bash
# An opening atlas on a Slurm cluster: every round of `ponte atlas run` as a job array of N
# tasks (task i plays --shard i/N into its own shard database), and a merge job that waits for
# the whole array (--dependency=afterok) and submits the next round, until `ponte atlas plan`
# says done. Everything lives in one directory on storage that every node sees.
#
#   atlas-slurm.sh --dir DIR --shards N [--ponte PATH] [--cpus C] [--sbatch OPT]... [--wait] -- ATLAS FLAGS
#   atlas-slurm.sh --dir DIR [--wait]     resume: submit what the current round lacks
#   atlas-slurm.sh --dir DIR --status     the round, its tasks done and the jobs in the queue
#
# A task that fails (killed, node lost, time limit) leaves its round unmerged: the merge job
# is cancelled with it and the chain stops. Run the script again with the same --dir: it
# submits only the tasks without their mark, then the merge. A task run again keeps the games
# its shard stored, plays the rest of its share and nothing twice (a game is keyed by stage,
# class and index; `ponte atlas merge` adds a game once). docs/cluster.md has the recipe.
set -euo pipefail

self=$(realpath "$0")

die() { echo "atlas-slurm.sh: $*" >&2; exit 2; }

# shellcheck source=lib.sh
source "$(dirname "$self")/lib.sh"

# submit submits round r: the array of the tasks without their mark, and the merge job.
submit() {
  local r=$1
  mkdir -p "$dir/round-$r"
  echo "$r" > "$dir/round.tmp" && mv "$dir/round.tmp" "$dir/round"
  submit_array "atlas-r$r" "$dir/round-$r" "round-$r-" "$r"
  echo "round $r: tasks ${missing[*]:-none} (job ${arr:-none}), merge job $merge"
}

# task plays shard SLURM_ARRAY_TASK_ID of round r.
task() {
  local r=$1 i=$SLURM_ARRAY_TASK_ID db
  db="$dir/shard-$i.db"
  # The first attempt of a round starts from the merged atlas (every shard computes the same
  # plan from it); an attempt after a failure keeps what the shard stored.
  if [ ! -e "$dir/round-$r/start-$i" ]; then
    rm -f "$db" "$db-wal" "$db-shm"
    if [ -e "$dir/atlas.db" ]; then
      cp "$dir/atlas.db" "$db.tmp" && mv "$db.tmp" "$db"
    fi
    touch "$dir/round-$r/start-$i"
  fi
  "$ponte" atlas run --db "$db" --shard "$i/$shards" --workers "$cpus" --quiet "${flags[@]}" > /dev/null
  touch "$dir/round-$r/ok-$i"
}

# merge adds the shards to atlas.db, then submits round r+1 or marks the atlas done.
merge() {
  local r=$1 shard_dbs=() i
  for ((i = 1; i <= shards; i++)); do
    if [ -e "$dir/shard-$i.db" ]; then shard_dbs+=("$dir/shard-$i.db"); fi
  done
  [ ${#shard_dbs[@]} -gt 0 ] || die "round $r: no shard database in $dir"
  "$ponte" atlas merge --db "$dir/atlas.db" "${shard_dbs[@]}" > /dev/null
  touch "$dir/round-$r/merged"
  if "$ponte" atlas plan --db "$dir/atlas.db" | grep -q '"done":true'; then
    "$ponte" atlas show --db "$dir/atlas.db" > "$dir/atlas.txt"
    touch "$dir/done"
    echo "round $r merged: the atlas is done ($dir/atlas.txt)"
  else
    echo "round $r merged"
    submit $((r + 1))
  fi
}

case "${1:-}" in
  task | merge)
    what=$1 dir=$2
    load "start one with --shards N -- FLAGS"
    "$what" "$3"
    exit 0
    ;;
esac

dir= shards= ponte= cpus=1 wait=0 status=0 sbatch_opts=() flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --shards) shards=$2; shift 2 ;;
    --ponte) ponte=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --sbatch) sbatch_opts+=("$2"); shift 2 ;;
    --wait) wait=1; shift ;;
    --status) status=1; shift ;;
    --) shift; flags=("$@"); break ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1 (the atlas's flags go after --)" ;;
  esac
done
[ -n "$dir" ] || die "--dir DIR is needed"

if [ ! -e "$dir/settings.sh" ]; then
  [ -n "$shards" ] || die "$dir: a new atlas needs --shards N"
  [ ${#flags[@]} -gt 0 ] || die "$dir: a new atlas needs its flags after --: -- --size 10 --bot sage-50"
  [[ "$shards" =~ ^[1-9][0-9]*$ && "$cpus" =~ ^[1-9][0-9]*$ ]] || die "--shards and --cpus: a number from 1"
  [ -n "$ponte" ] || ponte=$(command -v ponte) || die "no ponte on PATH: name it with --ponte"
  mkdir -p "$dir"
  dir=$(realpath "$dir")
  ponte=$(realpath "$ponte")
  declare -p shards ponte cpus sbatch_opts flags | sed 's/^declare /declare -g /' > "$dir/settings.sh"
  : > "$dir/jobs"
  load "start one with --shards N -- FLAGS"
  submit 1
else
  [ -z "$shards" ] && [ ${#flags[@]} -eq 0 ] || die "$dir holds an atlas already: resume it with --dir alone"
  dir=$(realpath "$dir")
  load "start one with --shards N -- FLAGS"
  r=$(cat "$dir/round")
  if [ "$status" = 1 ]; then
    ok=$(ls "$dir/round-$r" | sed -n 's/^ok-//p' | sort -n | paste -sd, -)
    echo "round $r: tasks done ${ok:-none} of $shards; merged: $([ -e "$dir/round-$r/merged" ] && echo yes || echo no);" \
      "done: $([ -e "$dir/done" ] && echo yes || echo no); jobs in the queue: $(queued | paste -sd, - | sed 's/^$/none/')"
    exit 0
  fi
  if [ -e "$dir/done" ]; then
    echo "the atlas is done: $dir/atlas.txt"
  elif [ -n "$(queued)" ]; then
    echo "round $r: its jobs are still in the queue ($(queued | paste -sd, -)): not submitted again"
  elif [ -e "$dir/round-$r/merged" ]; then
    if "$ponte" atlas plan --db "$dir/atlas.db" | grep -q '"done":true'; then
      "$ponte" atlas show --db "$dir/atlas.db" > "$dir/atlas.txt"
      touch "$dir/done"
      echo "the atlas is done: $dir/atlas.txt"
    else
      submit $((r + 1))
    fi
  else
    submit "$r"
  fi
fi

[ "$wait" = 1 ] || exit 0
# Wait for the chain: while a job of the current round is in the queue (the merge job
# writes the next round's jobs before it ends).
while [ -n "$(queued)" ]; do sleep 1; done
r=$(cat "$dir/round")
if [ -e "$dir/done" ]; then
  echo "the atlas is done after round $r: $dir/atlas.txt"
  exit 0
fi
echo "round $r stopped before its merge: $("$0" --dir "$dir" --status)" >&2
echo "see $dir/log/round-$r-*.out; run again with --dir $dir to resubmit what it lacks" >&2
exit 1
