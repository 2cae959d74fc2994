import { mappingOfInferred, type Rollout } from '../../format';
import { readWith } from '../../state';
import { download } from '../shared/download';

/** `extra.read_by_shape` of a record the structural reader read (docs/formats.md, "Read by shape"). */
function inferredOf(record: Rollout | null | undefined): Record<string, unknown> | null {
  const extra = record?.extra as Record<string, unknown> | undefined;
  const inferred = extra?.read_by_shape;
  return record?.source_format === 'structural' && typeof inferred === 'object' && inferred !== null
    ? (inferred as Record<string, unknown>)
    : null;
}

/**
 * Says a rollout was read by shape (no adapter knows its tool) and from which fields, and turns that into a
 * field mapping in one click: kept as a file (`--map`), or read with at once, where the mapping editor can
 * correct it. Every inference is named, none silent (issue 24).
 */
export function ReadByShape({ record }: { record: Rollout | null | undefined }) {
  const inferred = inferredOf(record);
  const mapping = inferred ? mappingOfInferred(inferred) : null;
  if (!inferred || !mapping) return null;
  const { conversation, shape, ...facts } = inferred;
  const text = `${JSON.stringify(mapping, null, 2)}\n`;
  return (
    <p className="rollout-head__shape" role="note">
      <strong>Read by shape</strong>: no adapter knows this tool, so the conversation is <code>{String(conversation)}</code> read as{' '}
      {String(shape)} messages
      {Object.entries(facts).map(([fact, path]) => (
        <span key={fact}>
          , {fact} from <code>{String(path)}</code>
        </span>
      ))}
      .{' '}
      <button type="button" className="link-button" onClick={() => download('mapping.json', text)}>
        Save as a mapping
      </button>{' '}
      ·{' '}
      <button type="button" className="link-button" onClick={() => readWith({ mapping: JSON.stringify(mapping) })}>
        Read the files with it (and edit it)
      </button>
    </p>
  );
}
