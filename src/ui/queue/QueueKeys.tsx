import { REVIEW_VERDICTS } from '../../load';
import { VERDICT_KEYS } from '../shared/useReviewKeys';
import { QUEUE_KEYS } from './useQueueKeys';

/** The page's keys, from the same lists the handlers read. */
export function QueueKeys() {
  return (
    <section className="queue-card" aria-labelledby="queue-keys-title">
      <h3 id="queue-keys-title">Keys</h3>
      <dl className="queue-keys">
        <div>
          <dt>
            {REVIEW_VERDICTS.map((v) => (
              <kbd key={v}>{VERDICT_KEYS[v]}</kbd>
            ))}
          </dt>
          <dd>agree / disagree / unsure with the grader</dd>
        </div>
        {QUEUE_KEYS.map((k) => (
          <div key={k.what}>
            <dt>
              {k.keys.map((key) => (
                <kbd key={key}>{key}</kbd>
              ))}
            </dt>
            <dd>{k.what}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
