#!/usr/bin/env bash
# Indexes a run as a parallel job: a map over its files (one `trajscope index` per slice of the file
# list, each writing a partial index), then one merge step (`trajscope index --merge`). docs/scale.md.
#
#   scripts/index-parallel.sh RUN_DIR OUT_DIR TASKS            run all TASKS here, in parallel, then merge
#   scripts/index-parallel.sh --task K RUN_DIR OUT_DIR TASKS   one task of a job array (K in 0..TASKS-1)
#   scripts/index-parallel.sh --merge OUT_DIR                  the merge step, after every task is done
#
# On a cluster, submit --task as an array job (Slurm: K=$SLURM_ARRAY_TASK_ID; Kubernetes Indexed Job:
# K=$JOB_COMPLETION_INDEX; AWS Batch: K=$AWS_BATCH_JOB_ARRAY_INDEX), then --merge once. RUN_DIR must be the
# same path in every task (a shared or mounted file system: NFS, Lustre, mountpoint-s3, gcsfuse); OUT_DIR too.
# Extra options for `trajscope index` (e.g. --shard-rows 50000) go in TRAJSCOPE_INDEX_ARGS.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TRAJSCOPE="${TRAJSCOPE:-node $HERE/../bin/trajscope.mjs}"
read -r -a EXTRA <<< "${TRAJSCOPE_INDEX_ARGS:-}"

files_of() { # the run's trajectory files, one per line, in name order: every task sees the same list
  (cd "$1" && find . -path '*/.*' -prune -o -type f \( -name '*.jsonl' -o -name '*.jsonl.gz' -o -name '*.json' -o -name '*.traj' -o -name '*.eval' \) -print \
    | grep -v '/metadata\.json$' | sed 's#^\./##' | LC_ALL=C sort)
}

task() { # task K of N: every N-th file from K (sizes even out over a run's many similar files)
  local k="$1" run="$2" out="$3" n="$4"
  local mine=()
  local i=0
  while IFS= read -r f; do
    if (( i % n == k )); then mine+=("$run/$f"); fi
    i=$((i + 1))
  done < <(files_of "$run")
  if (( ${#mine[@]} == 0 )); then echo "task $k: no files" >&2; return 0; fi
  $TRAJSCOPE index --quiet --jobs 1 --base "$run" "${EXTRA[@]}" --out "$out/parts/task-$k" "${mine[@]}"
}

merge() {
  local out="$1"
  local parts=("$out"/parts/task-*)
  $TRAJSCOPE index --merge --out "$out" "${parts[@]}"
}

case "${1:-}" in
  --task) shift; task "$@" ;;
  --merge) shift; merge "$@" ;;
  ""|-h|--help) sed -n '2,14p' "$0"; exit 2 ;;
  *)
    run="$1" out="$2" n="$3"
    pids=()
    for ((k = 0; k < n; k++)); do task "$k" "$run" "$out" "$n" & pids+=("$!"); done
    status=0
    for p in "${pids[@]}"; do wait "$p" || status=$?; done
    if (( status != 0 )); then echo "a task failed (exit $status): not merging" >&2; exit "$status"; fi
    merge "$out"
    ;;
esac
