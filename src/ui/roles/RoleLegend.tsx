import type { FlowKind } from './events';

const ITEMS: Array<{ kind: FlowKind; name: string; text: string }> = [
  { kind: 'action', name: 'tool call', text: 'to the harness, dispatched' },
  { kind: 'observation', name: 'observation', text: 'back to the model' },
  { kind: 'submission', name: 'artifact', text: 'to the grader' },
  { kind: 'private-grade', name: 'private grade', text: 'to the trainer only, never to the model' },
  { kind: 'trajectory', name: 'trajectory', text: 'to the trainer' },
];

/** What each kind of arrow means; the two flows the article keeps apart are told apart by colour and dash. */
export function RoleLegend({ timed }: { timed: boolean }) {
  return (
    <ul className="roles-legend" aria-label="Legend">
      {ITEMS.map((item) => (
        <li key={item.kind} className="roles-legend__item">
          <svg width="34" height="10" aria-hidden="true" className={`flow flow--${item.kind}`}>
            <line x1="1" y1="5" x2="27" y2="5" />
            <path d="M26,1 L33,5 L26,9 z" className="roles-legend__head" />
          </svg>
          <b>{item.name}</b> <span>{item.text}</span>
        </li>
      ))}
      <li className="roles-legend__item roles-legend__note">{timed ? 'taller box = longer' : 'no timestamps: in order only'}</li>
    </ul>
  );
}
