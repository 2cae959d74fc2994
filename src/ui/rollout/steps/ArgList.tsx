import { Marked } from '../../shared/Marked';
import type { ArgEntry } from './callArgs';

/** Arguments as key and value; long or multi-line values on lines of their own. */
export function ArgList({ entries }: { entries: ArgEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <dl className="st-args">
      {entries.map((e) => (
        <div key={e.key} className={e.block ? 'st-args__row st-args__row--block' : 'st-args__row'}>
          <dt className="st-args__key">{e.key}</dt>
          <dd className={e.json ? 'st-args__value st-args__value--json' : 'st-args__value'}>
            <Marked text={e.text} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
