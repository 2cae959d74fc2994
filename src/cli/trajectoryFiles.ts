/**
 * The file names `view` serves, `index` reads from a run directory and `bundle` copies (docs/formats.md):
 * the files the readers take (an Inspect `.eval` is a zip, told by its bytes); one rule, so a file the
 * page lists is one the index holds.
 */
export const TRAJECTORY_FILE = /\.(jsonl|jsonl\.gz|json|traj|eval)$/i;
