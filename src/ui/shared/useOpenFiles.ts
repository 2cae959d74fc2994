import { useCallback } from 'react';
import { openSources, useUiActions } from '../../state';

/** What the file picker offers; a drop is held to the same names (see `openDropped`). */
// v1 JSONL, and what the format adapters read: verifiers/prime-rl/chat JSONL, rLLM .json, SWE-agent .traj.
export const ACCEPT = '.jsonl,.gz,.jsonl.gz,.json,.traj';
const ACCEPTED_NAME = /\.(jsonl|gz|json|traj)$/i;

/**
 * Returns `open(files, { fromDrop })`: registers the files in the UI store and points the URL at them.
 * A drop can carry anything the person happened to grab, so dropped files that are not .jsonl/.gz are
 * skipped with a notice; files picked explicitly in the dialog are trusted to be JSON Lines.
 */
export function useOpenFiles(): (files: readonly File[], options?: { fromDrop?: boolean }) => void {
  const { addLocalFiles, setNotice } = useUiActions();
  return useCallback(
    (files, { fromDrop = false } = {}) => {
      const accepted = fromDrop ? files.filter((f) => ACCEPTED_NAME.test(f.name)) : [...files];
      const skipped = files.filter((f) => !accepted.includes(f));
      setNotice(
        skipped.length > 0
          ? `Skipped ${skipped.map((f) => f.name).join(', ')}: only .jsonl, .jsonl.gz, .json and .traj files are opened.`
          : null,
      );
      if (accepted.length > 0) openSources(addLocalFiles(accepted));
    },
    [addLocalFiles, setNotice],
  );
}
