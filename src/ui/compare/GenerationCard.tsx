import type { GenerationDivergence, GenerationSide } from '../../analysis';
import type { Rollout } from '../../format';
import { toToken, useRecordDecoder } from '../../state';
import { formatLogprob } from '../shared/format';

/** Where the two rollouts' sampling first went apart, and how likely each side's token was there. */
export function GenerationCard(props: {
  divergence: GenerationDivergence | null;
  keyA: string;
  keyB: string;
  recordA: Rollout;
  recordB: Rollout;
}) {
  const { divergence: d } = props;
  if (!d) return <p className="compare-gen compare-gen--none">No generation differs in token ids (or neither records token ids).</p>;
  return (
    <section className="compare-gen" aria-label="First divergent generation">
      <span className="compare-gen__title">
        First divergent generation: segment {d.segment}, token {d.index}
      </span>
      <GenSide label="A" side={d.a} rolloutKey={props.keyA} record={props.recordA} />
      <GenSide label="B" side={d.b} rolloutKey={props.keyB} record={props.recordB} />
    </section>
  );
}

function GenSide({ label, side, rolloutKey, record }: { label: string; side: GenerationSide; rolloutKey: string; record: Rollout }) {
  const decoder = useRecordDecoder(record);
  const t = side.token;
  const text = t ? (t.text ?? decoder?.piece(t.id) ?? null) : null;
  return (
    <span className="compare-gen__side">
      <b>{label}</b>{' '}
      {t ? (
        <button type="button" className="compare-gen__token" onClick={() => toToken(rolloutKey, side.segment, t.index)}>
          {text === null ? `id ${t.id}` : JSON.stringify(text)}
        </button>
      ) : (
        'ended here'
      )}
      {t?.logprob != null && <> log p {formatLogprob(t.logprob)}</>} · generation {side.tokens} tokens, Σ log p{' '}
      {formatLogprob(side.sumLogprob, 1)}
      {side.meanLogprob !== null && <>, mean {formatLogprob(side.meanLogprob)}</>}
    </span>
  );
}
