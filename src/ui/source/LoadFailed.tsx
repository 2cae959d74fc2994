import { LoadError } from '../../load';
import { DEMO_URL } from '../../state';
import { OpenFilesButton } from '../shared/OpenFilesButton';

/** Why nothing could be read, in words, with the way forward. */
export function LoadFailed({ error, isDemo }: { error: Error; isDemo: boolean }) {
  const missingDemo = isDemo && error instanceof LoadError && error.reason === 'not-found';
  return (
    <div className="placeholder" role="alert">
      <h2>{missingDemo ? 'The demo data is not in this build' : 'Could not load the data'}</h2>
      <p>
        {missingDemo
          ? `There is no file at ${DEMO_URL}. Open a .jsonl or .jsonl.gz file of rollouts, or drop one anywhere on this page.`
          : error.message}
      </p>
      <div className="placeholder__actions">
        <OpenFilesButton primary />
      </div>
    </div>
  );
}
