import { OpenFilesButton } from '../shared/OpenFilesButton';

/**
 * `trajscope view` serves a folder with no trajectory file in it yet (a run about to start): say so, and
 * show the files as they appear (the served list is followed live), never the embedded demo.
 */
export function WaitingForFiles() {
  return (
    <div className="placeholder" role="status" aria-busy="true">
      <h2>Waiting for trajectory files</h2>
      <p>
        The folder <span className="mono">trajscope view</span> serves has none yet (.jsonl, .jsonl.gz, .json, .traj, .eval). They open here
        as they are written; nothing to reload.
      </p>
      <div className="placeholder__actions">
        <OpenFilesButton primary />
      </div>
    </div>
  );
}
