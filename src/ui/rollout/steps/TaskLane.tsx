import { useState } from 'react';
import { plural } from '../../../analysis';
import type { Rollout } from '../../../format';

/** A prompt longer than this many lines is folded to its first ones (a 2,400 px prompt hid step 1, issue 31). */
const FOLDED_LINES = 12;

/** The task as given to the model, above its first step. */
export function TaskLane({ record }: { record: Rollout }) {
  const prompt = record.task?.prompt;
  const contract = record.task?.contract;
  const [open, setOpen] = useState(false);
  // Lines as written, a long line counted by the ~110 characters the lane shows of it.
  const lines = prompt === undefined ? 0 : prompt.split('\n').reduce((n, l) => n + Math.max(1, Math.ceil(l.length / 110)), 0);
  const folded = lines > FOLDED_LINES && !open;
  return (
    <section className="st-lane st-lane--task" aria-label="Task">
      <div className="st-lane__label">
        Task <span className="faint">· given to the model at the start of its first context</span>
      </div>
      {prompt !== undefined ? (
        <>
          <p className={`st-lane__prompt${folded ? ' st-lane__prompt--folded' : ''}`} style={{ ['--lines' as string]: FOLDED_LINES }}>
            {prompt}
          </p>
          {lines > FOLDED_LINES && (
            <button type="button" className="link-button st-lane__fold" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
              {open ? 'Fold the prompt' : `Show the whole prompt (${plural(lines, 'line')})`}
            </button>
          )}
        </>
      ) : (
        <p className="faint">No task prompt recorded (task.prompt); the first context below shows what the model was given.</p>
      )}
      {contract !== undefined && (
        <p className="st-lane__contract">
          <span className="st-lane__key">Contract</span> {contract}
        </p>
      )}
      <p className="st-lane__meta">
        <span className="st-lane__key">Task</span> <span className="mono">{record.task_id}</span>
        {record.policy_version !== undefined && (
          <>
            {' '}
            · <span className="st-lane__key">policy</span> <span className="mono">{record.policy_version}</span>
          </>
        )}
        {record.environment_version !== undefined && (
          <>
            {' '}
            · <span className="st-lane__key">environment</span> <span className="mono">{record.environment_version}</span>
          </>
        )}
      </p>
    </section>
  );
}
