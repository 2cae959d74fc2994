import { Notice } from '../shared/Notice';
import { OpenFilesButton } from '../shared/OpenFilesButton';

const EXPLAIN = 'Files opened from your computer are not kept when the page reloads.';

function names(missing: readonly string[]): string {
  return missing.join(', ');
}

/** The URL names local files this page no longer holds, and nothing else is left to show. */
export function MissingFiles({ missing }: { missing: readonly string[] }) {
  return (
    <div className="placeholder" role="alert">
      <h2>Reopen the file{missing.length === 1 ? '' : 's'} to continue</h2>
      <p>
        This link points at <span className="mono">{names(missing)}</span>. {EXPLAIN}
      </p>
      <div className="placeholder__actions">
        <OpenFilesButton primary />
        <a href="?">or open the demo</a>
      </div>
    </div>
  );
}

/** Some of the linked files were lost on reload; the rest are shown. */
export function MissingFilesNotice({ missing }: { missing: readonly string[] }) {
  return (
    <Notice tone="warning">
      Not shown: <span className="mono">{names(missing)}</span>. {EXPLAIN} Reopen {missing.length === 1 ? 'it' : 'them'} with Open files… or
      drop {missing.length === 1 ? 'it' : 'them'} here.
    </Notice>
  );
}
