import type { TranscriptMessage } from '../../../format';
import { Marked } from '../../shared/Marked';

const KNOWN_ROLES = new Set(['assistant', 'user', 'tool', 'system']);

/** Chat messages as the model saw them, for rollouts converted from tools that record text, not token ids. */
export function TranscriptView({ messages, first = 0 }: { messages: readonly TranscriptMessage[]; first?: number }) {
  if (messages.length === 0)
    return <p className="scell__note">{first === 0 ? 'No messages before this generation.' : 'Nothing new since the step before.'}</p>;
  // Messages have no id; their position in the record is their identity (`first` is the first one's).
  const numbered = messages.map((m, i) => ({ m, position: first + i }));
  return (
    <ol className="st-transcript">
      {numbered.map(({ m, position }) => (
        <li key={position} className={`st-msg st-msg--${KNOWN_ROLES.has(m.role) ? m.role : 'other'}`}>
          <span className="st-msg__role">{m.role}</span>
          {m.content ? (
            <pre className="st-msg__text">
              <Marked text={m.content} />
            </pre>
          ) : (m as { audio_only?: unknown }).audio_only === true ? (
            // A voice run's speech recorded as audio alone (tau2 ticks): said, rather than shown as an empty turn.
            <p className="scell__note">Audio only: the source recorded no text of this speech.</p>
          ) : null}
          {(m.tool_calls ?? []).map((c) => (
            <pre key={`${c.id ?? ''}:${c.name ?? ''}:${c.arguments ?? ''}`} className="st-msg__call">
              → {c.name ?? '(unnamed call)'}({c.arguments ?? ''})
            </pre>
          ))}
        </li>
      ))}
    </ol>
  );
}
