# Shared by atlas-slurm.sh and annotate-slurm.sh (sourced, after they define die, self and
# dir): the settings of a run's directory, the submission of a job array with its merge
# job, and the jobs of a submission still in the queue.

# load reads the settings the first submission wrote to $dir/settings.sh; $1 says how to
# start a directory of the calling script.
load() {
  [ -f "$dir/settings.sh" ] || die "$dir: no settings.sh: not a directory of this script ($1)"
  # shellcheck source=/dev/null
  source "$dir/settings.sh"
}

# submit_array NAME MARKS LOG [ARG]: submits, as job array NAME, the tasks 1..$shards
# without their mark MARKS/ok-i (each runs "$self task $dir ARG"), and a merge job,
# NAME-merge, that waits for the whole array ("$self merge $dir ARG"; cancelled with it if a
# task fails); logs go to $dir/log/LOG{task-%a,merge}.out. It writes the two job ids to
# $dir/jobs and sets missing, arr and merge.
submit_array() {
  local name=$1 marks=$2 log=$3 arg=${4:-} i after=()
  missing=() arr=
  mkdir -p "$dir/log"
  for ((i = 1; i <= shards; i++)); do
    [ -e "$marks/ok-$i" ] || missing+=("$i")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    arr=$(IFS=,; sbatch --parsable --job-name="$name" --array="${missing[*]}" --cpus-per-task="$cpus" \
      "${sbatch_opts[@]}" --output="$dir/log/${log}task-%a.out" --open-mode=append \
      --wrap="exec bash '$self' task '$dir' $arg")
    arr=${arr%%;*}
    after=(--dependency="afterok:$arr" --kill-on-invalid-dep=yes)
  fi
  merge=$(sbatch --parsable --job-name="$name-merge" "${after[@]}" "${sbatch_opts[@]}" \
    --output="$dir/log/${log}merge.out" --open-mode=append --wrap="exec bash '$self' merge '$dir' $arg")
  merge=${merge%%;*}
  echo "$arr $merge" > "$dir/jobs.tmp" && mv "$dir/jobs.tmp" "$dir/jobs"
}

# queued prints the jobs of the last submission still pending or running. A merge job
# submits the next round and rewrites $dir/jobs just before it ends, so the ids are read
# again after squeue: if they changed meanwhile, the queue is asked again (else the old
# ids, their merge job just ended, would say the queue is empty while the next round waits).
queued() {
  local ids out
  while :; do
    ids=$(tr ' ' '\n' < "$dir/jobs" | grep . | paste -sd, -) || return 0
    out=$(squeue -h -o %i -j "$ids" 2> /dev/null || true)
    [ "$(tr ' ' '\n' < "$dir/jobs" | grep . | paste -sd, -)" = "$ids" ] && break
  done
  [ -z "$out" ] || echo "$out"
}
