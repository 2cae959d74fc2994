import { useMemo } from 'react';
import { isTextOnly } from '../../../analysis';
import { callIdIsLocator, formatCount, parseToolCall, type Segment, type Step, segmentText } from '../../../format';
import type { Decoder } from '../../../load';
import { formatLogprob } from '../../shared/format';
import { Marked } from '../../shared/Marked';
import { ArgList } from './ArgList';
import { argEntries, editArgs } from './callArgs';
import { decodeRun } from './contextRuns';
import { EditDiffView } from './EditDiffView';
import { formatProbability, generationStats } from './stepFacts';
import type { Expanded } from './useExpanded';

interface Props {
  step: Step | undefined;
  segment: Segment | undefined;
  segmentIndex: number | null;
  decoder: Decoder | null;
  expanded: Expanded;
}

/** What the model generated: the tool call with its arguments (an edit as a diff) and its generation stats. */
export function ActionCell({ step, segment, segmentIndex, decoder, expanded }: Props) {
  const textKey = `gen:${segmentIndex}`;
  const showText = expanded.isOpen(textKey);
  // The generated text is decoded only when it is shown or when there is no step to read the call from.
  const generated = useMemo(
    () => (segment && (showText || !step) ? decodeRun(segment.generated_ids, decoder) : null),
    [segment, showText, step, decoder],
  );
  const parsed = useMemo(() => (!step && generated ? parseToolCall(generated.text) : null), [step, generated]);
  const textOnly = segment !== undefined && isTextOnly(segment);
  // Text over ids: a record with ids no tokenizer here decodes may hold the generation's text too (NeMo Gym).
  const text = segment !== undefined && (textOnly || decoder?.source === 'none') ? segmentText(segment) : undefined;
  const stats = useMemo(() => (segment && !textOnly ? generationStats(segment) : null), [segment, textOnly]);

  const tool = step?.tool ?? parsed?.name ?? null;
  const args = step ? (step.args ?? {}) : (parsed?.args ?? null);
  const edit = args ? editArgs(args) : null;
  const entries = args ? argEntries(args, edit ? [edit.oldKey, edit.newKey] : []) : [];

  return (
    <div className="scell scell--action">
      <div className="scell__head">
        {tool !== null ? (
          <span className="st-tool-name">{tool}</span>
        ) : (
          <span className="faint">{segment?.tool_call_id == null ? 'text answer (no tool call)' : 'unparsed generation'}</span>
        )}
        {(step?.tool_call_id ?? segment?.tool_call_id) && (
          <span className="st-call-id">
            {step?.tool_call_id ?? segment?.tool_call_id}
            {(step ? callIdIsLocator(step) : segment ? callIdIsLocator(segment) : false) && (
              <span
                className="st-call-id__locator"
                title="The source recorded no call id for this action: its location in the file stands in (docs/formats.md)"
              >
                {' '}
                location, not a call id
              </span>
            )}
          </span>
        )}
      </div>
      <div className="scell__body">
        {!step && parsed && <p className="scell__note">Read from the generated text: the harness recorded no step for it.</p>}
        {args && entries.length === 0 && !edit && <span className="faint">no arguments</span>}
        <ArgList entries={entries} />
        {edit && <EditDiffView oldText={edit.old} newText={edit.new} />}
        {!args && generated && !textOnly && !text && <pre className="st-gen-text">{generated.text}</pre>}
        {text ? (
          <pre className="st-gen-text">
            <Marked text={text} />
          </pre>
        ) : null}
        {!segment && <p className="scell__note">No generation recorded for this step.</p>}
      </div>
      {textOnly && (segment as { audio_only?: unknown } | undefined)?.audio_only === true ? (
        // A voice run's speech recorded as audio alone (tau2 ticks): neither text nor ids to show.
        <p className="scell__note" title="A voice run's speech, recorded as audio only (docs/formats.md, tau2 voice runs)">
          Audio only: the source recorded no text or token ids of this speech.
        </p>
      ) : (
        textOnly && (
          <p className="scell__note" title="Converted from a tool that records messages, not token ids (docs/formats.md)">
            Text only: the source recorded no token ids or log-probabilities for this generation.
          </p>
        )
      )}
      {stats && (
        <div className="st-gen-stats">
          <span>{formatCount(stats.tokens)} tokens</span>
          <span
            title={`Sum of old_logprobs over the ${stats.tokens} generated tokens: the behaviour policy's log-probability of the whole call${stats.lengthMismatch ? ' (old_logprobs and generated_ids differ in length: summed over what is there)' : ''}`}
          >
            log p {formatLogprob(stats.logprob)} <span className="faint">(p {formatProbability(stats.logprob)})</span>
            {stats.lengthMismatch && <span className="count--error"> ≠ length</span>}
          </span>
          {stats.masked > 0 && <span title="Generated tokens with loss_mask 0: not trained on">{stats.masked} masked</span>}
          {args && (
            <button
              type="button"
              className="link-button st-gen-stats__toggle"
              aria-expanded={showText}
              onClick={() => expanded.toggle(textKey)}
            >
              {showText ? 'hide generated text' : 'generated text'}
            </button>
          )}
        </div>
      )}
      {args && showText && generated && <pre className="st-gen-text">{generated.text}</pre>}
    </div>
  );
}
