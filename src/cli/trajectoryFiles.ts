import { isTrajectoryFileName, TRAJECTORY_EXTENSIONS } from '../format';

/**
 * The file names `view` serves, `index` reads from a run directory and `bundle` copies: the endings the
 * format registry lists (src/format/adapters/registry.ts), one rule with the page's Open dialog and drop.
 */
export const isTrajectoryFile = isTrajectoryFileName;

/** "(.jsonl.gz, .jsonl, .json, .eval, .traj)": for messages that say what was looked for. */
export const TRAJECTORY_ENDINGS = `(${TRAJECTORY_EXTENSIONS.join(', ')})`;
