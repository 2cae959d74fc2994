import type { RewriteClass } from '../../analysis';
import { REWRITE_WORDS, spanWords } from '../shared/rewriteReason';

interface Props {
  reason: RewriteClass;
  segment: number;
  onShow: () => void;
}

/** Why the shown context is not the previous one plus an append: the class, its meaning and the span (marked in the chips). */
export function RewriteNote({ reason, segment, onShow }: Props) {
  const words = REWRITE_WORDS[reason.kind];
  return (
    <section className="tok-rewrite" aria-label="Why this context was rewritten">
      <span className="tok-rewrite__kind">Context rewritten: {words.label}</span>
      <span>
        {words.meaning}. In this context: {spanWords(reason.after)}
        {reason.after.end > reason.after.start ? ' (marked below)' : ' (the mark shows where)'}; in segment {segment - 1}'s sequence:{' '}
        {spanWords(reason.before)}.{reason.removed && <> Removed: “{reason.removed}”.</>}
        {reason.inserted && <> Now: “{reason.inserted}”.</>}
      </span>
      <button type="button" className="link-button" onClick={onShow}>
        Go to the span
      </button>
    </section>
  );
}
