import type { Segment, Step } from '../../../format';
import { CodeBlock } from '../../shared/highlight';
import { executionNote, observationLanguage, statusTone, stepTiming } from './stepFacts';
import { TestResults } from './TestResults';

interface Props {
  step: Step | undefined;
  segment: Segment | undefined;
  rolloutStart: string | undefined;
}

/** What the tool gave back: status, exit code, how it ran, the tests, and the text the model got. */
export function ObservationCell({ step, segment, rolloutStart }: Props) {
  if (!step) {
    return (
      <div className="scell scell--obs">
        <p className="scell__note">
          {segment?.tool_call_id == null
            ? 'No tool call: this generation is a text answer, and nothing was executed.'
            : `No step: the harness recorded no execution of call ${segment.tool_call_id}.`}
        </p>
      </div>
    );
  }
  const obs = step.observation;
  const note = executionNote(step);
  const timing = stepTiming(step, rolloutStart);
  const text = obs?.text;
  return (
    <div className="scell scell--obs">
      <div className="scell__head">
        {obs?.status !== undefined ? (
          <span className={`st-status st-status--${statusTone(obs.status)}`}>{obs.status}</span>
        ) : (
          <span className="faint">no status</span>
        )}
        {obs?.exit_code != null && <span className="st-obs-fact">exit {obs.exit_code}</span>}
        {obs?.truncated && <span className="st-status st-status--other">truncated</span>}
        {timing && (
          <span className="st-obs-fact st-obs-fact--time" title={timing.title}>
            {[timing.offset && `at ${timing.offset}`, timing.duration].filter(Boolean).join(' · ') || 'timed'}
          </span>
        )}
        {step.process_reward !== undefined && (
          <span className="st-obs-fact" title="process_reward: a per-step score (training side)">
            process reward {step.process_reward}
          </span>
        )}
      </div>
      {note && <p className={`st-exec-note st-exec-note--${note.tone}`}>{note.text}</p>}
      {(step as { joined_by?: unknown }).joined_by === 'position' && (
        <p className="scell__note" title="docs/formats.md: results joined to calls by order">
          Paired with its call by order: the source records no call ids.
        </p>
      )}
      {step.tests && <TestResults tests={step.tests} />}
      <div className="scell__body">
        {text === undefined ? (
          <span className="faint">no observation text</span>
        ) : text === '' ? (
          <span className="faint">empty observation</span>
        ) : (
          <CodeBlock code={text} lang={observationLanguage(step)} className="st-obs-text" />
        )}
      </div>
    </div>
  );
}
