import { FINDING_INFO, IN_SIGNAL_TERMINATIONS, terminationInfo } from '../../analysis';

/** What the marks of the group chart mean. */
export function GroupLegend() {
  return (
    <ul className="glegend" aria-label="Legend">
      {IN_SIGNAL_TERMINATIONS.map((kind) => (
        <li key={kind}>
          <svg width="12" height="12" aria-hidden="true">
            <circle cx="6" cy="6" r="5" className={`gpoint gpoint--${kind}`} />
          </svg>
          {terminationInfo(kind).label}
        </li>
      ))}
      <li title="Excluded from the policy signal (infra failure, cancelled, unknown termination) or without a numeric reward: not in the group statistics">
        <svg width="12" height="12" aria-hidden="true">
          <circle cx="6" cy="6" r="5" className="gpoint gpoint--cancelled is-hollow" />
        </svg>
        hollow: not counted (excluded or no reward)
      </li>
      <li>
        <svg width="12" height="14" aria-hidden="true">
          <line x1="6" x2="6" y1="1" y2="13" className="gmean-swatch" />
        </svg>
        group mean
      </li>
      <li title={FINDING_INFO.W_ZERO_VARIANCE_GROUP.title}>
        <span className="glegend__hatch" aria-hidden="true" />
        zero variance: all counted rewards equal, every advantage 0, no learning signal
      </li>
    </ul>
  );
}
