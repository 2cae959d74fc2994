import { useCallback } from 'react';
import { isTrajectoryFileName, TRAJECTORY_EXTENSIONS } from '../../format';
import { openSources, useUiActions } from '../../state';

/** What the file picker offers: the endings the format registry lists; a drop is held to the same names. */
export const ACCEPT = TRAJECTORY_EXTENSIONS.join(',');
/** "only .jsonl.gz, .jsonl, .json, .eval and .traj files are opened" */
export const ACCEPTED_WORDS = `${TRAJECTORY_EXTENSIONS.slice(0, -1).join(', ')} and ${TRAJECTORY_EXTENSIONS.at(-1)}`;

/**
 * Returns `open(files, { fromDrop })`: registers the files in the UI store and points the URL at them.
 * A drop can carry anything the person happened to grab, so dropped files of no trajectory ending are
 * skipped with a notice; files picked explicitly in the dialog are read whatever their name.
 */
export function useOpenFiles(): (files: readonly File[], options?: { fromDrop?: boolean }) => void {
  const { addLocalFiles, setNotice } = useUiActions();
  return useCallback(
    (files, { fromDrop = false } = {}) => {
      const accepted = fromDrop ? files.filter((f) => isTrajectoryFileName(f.name)) : [...files];
      const skipped = files.filter((f) => !accepted.includes(f));
      setNotice(skipped.length > 0 ? `Skipped ${skipped.map((f) => f.name).join(', ')}: only ${ACCEPTED_WORDS} files are opened.` : null);
      if (accepted.length > 0) openSources(addLocalFiles(accepted));
    },
    [addLocalFiles, setNotice],
  );
}
