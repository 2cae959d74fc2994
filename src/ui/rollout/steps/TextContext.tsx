import { messagesSeenBefore, plural, visibleMessages } from '../../../analysis';
import type { Rollout } from '../../../format';
import { formatCount } from '../../../format';
import { TranscriptView } from './TranscriptView';
import type { Expanded } from './useExpanded';

/**
 * A context read from the record's messages: for a text-only source, and for token ids no tokenizer here can
 * decode when the record has the text too (NeMo Gym, issue 31: text over ids). The messages the model had
 * seen at the previous step are folded, as the token view folds kept tokens, so each step shows what is new.
 */
export function TextContext({
  record,
  segment,
  tokens,
  expanded,
}: {
  record: Rollout;
  segment: number;
  /** The context's token count when the record has ids (they are not shown: no tokenizer decodes them). */
  tokens: number | null;
  expanded: Expanded;
}) {
  const messages = visibleMessages(record, segment);
  const { seen, rewritten } = messagesSeenBefore(record, segment);
  const key = `ctxmsg:${segment}`;
  const open = expanded.isOpen(key);
  const shown = messages ? (open ? messages : messages.slice(seen)) : null;
  return (
    <div className="scell scell--ctx">
      <div className="scell__head">
        <span className="st-obs-fact">{messages ? plural(messages.length, 'message') : 'no context recorded'}</span>
        {messages && segment > 0 && <span className="st-ctx-count st-ctx-count--added">+{formatCount(messages.length - seen)} new</span>}
        <span className="faint">
          {tokens === null
            ? 'text only: no token ids in the source'
            : `${plural(tokens, 'token')}; shown as the record's messages: no tokenizer here decodes these ids`}
        </span>
      </div>
      <div className="scell__body">
        {messages && seen > 0 && (
          <button type="button" className="st-ctx-fold" aria-expanded={open} onClick={() => expanded.toggle(key)}>
            {open ? '▾' : '▸'} {plural(seen, 'message')} seen at the step before
            {rewritten ? ' (the rest of that context was rewritten)' : ''}
          </button>
        )}
        {shown && <TranscriptView messages={shown} first={open ? 0 : seen} />}
      </div>
    </div>
  );
}
