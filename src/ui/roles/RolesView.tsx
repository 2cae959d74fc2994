import { useEffect, useMemo, useReducer, useState } from 'react';
import type { Rollout } from '../../format';
import { useSelectedRollout } from '../../state';
import { LANE_ROLE, LANES, lazyRoleEvents } from './events';
import { GUTTER, LANE_WIDTH, layoutRows, WIDTH } from './layout';
import { INITIAL_PLAYBACK, type Playback, type PlaybackAction, playbackStep } from './playback';
import { RoleLegend } from './RoleLegend';
import { SwimlaneDiagram } from './SwimlaneDiagram';
import './roles.css';

const SPEEDS = [0.5, 1, 2] as const;
/** How long one event stays current while playing at 1×: long enough to read its caption aloud. */
const EVENT_MS = 1800;

/**
 * The four roles of one rollout (design article §2): who generates, executes, holds state, grades and
 * trains, as a swimlane timeline with a play button for explaining agent RL live.
 */
export function RolesView() {
  const selected = useSelectedRollout();
  return selected?.record ? <Roles rolloutKey={selected.key} record={selected.record} /> : null;
}

function Roles({ rolloutKey, record }: { rolloutKey: string; record: Rollout }) {
  const timeline = useMemo(() => lazyRoleEvents(record), [record]);
  const { events, eventAt } = timeline;
  const { rows, height } = useMemo(() => layoutRows(events), [events]);
  const [play, dispatch] = useReducer((s: Playback, a: PlaybackAction) => playbackStep(s, a, events.length), INITIAL_PLAYBACK);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(1);
  const current = eventAt(play.index);

  // A new rollout (j / k) starts in the overview.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the rollout changes, not on every event list identity.
  useEffect(() => dispatch({ type: 'reset' }), [rolloutKey]);

  useEffect(() => {
    if (!play.playing) return;
    const t = setTimeout(() => dispatch({ type: 'tick' }), EVENT_MS / speed);
    return () => clearTimeout(t);
  }, [play, speed]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const action: PlaybackAction | null =
      e.key === 'ArrowRight' ? { type: 'next' } : e.key === 'ArrowLeft' ? { type: 'prev' } : e.key === 'Home' ? { type: 'reset' } : null;
    if (action) {
      e.preventDefault();
      dispatch(action);
    }
  };

  const end = timeline.excluded ? 'the harness and environment, never reaching the trainer' : 'the trainer';
  return (
    <section className="roles" aria-label="Four roles">
      <div className="roles__sticky">
        <div className="roles__bar">
          <div className="roles__controls" role="toolbar" aria-label="Playback" onKeyDown={onKeyDown}>
            <button
              type="button"
              className="btn btn--primary roles__play"
              onClick={() => dispatch({ type: 'toggle' })}
              aria-label={play.playing ? 'Pause' : 'Play'}
            >
              <span aria-hidden="true">{play.playing ? '❚❚' : '▶'}</span>{' '}
              {play.playing ? 'Pause' : play.index >= events.length - 1 && play.index >= 0 ? 'Replay' : 'Play'}
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => dispatch({ type: 'prev' })}
              disabled={play.index <= 0}
              aria-label="Previous event"
            >
              ‹ Back
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => dispatch({ type: 'next' })}
              disabled={play.index >= events.length - 1}
              aria-label="Next event"
            >
              Step ›
            </button>
            <button type="button" className="btn" onClick={() => dispatch({ type: 'reset' })} disabled={play.index < 0} aria-label="Reset">
              Reset
            </button>
            <label className="roles__speed">
              Speed
              <select value={speed} onChange={(e) => setSpeed(SPEEDS.find((s) => String(s) === e.target.value) ?? 1)}>
                {SPEEDS.map((s) => (
                  <option key={s} value={s}>
                    {s}×
                  </option>
                ))}
              </select>
            </label>
          </div>
          <RoleLegend timed={timeline.timed} />
        </div>
        <p className="roles__caption" role="status" aria-label="Narration">
          {current ? (
            <>
              <span className="roles__counter">
                {play.index + 1} / {events.length}
              </span>
              {current.caption}
            </>
          ) : (
            <>
              <span className="roles__counter">{events.length} events</span>
              Press Play to step through this rollout, from the model's first generation to {end}.
            </>
          )}
        </p>
        <ol className="roles-lanes" aria-label="Roles">
          <li className="roles-lanes__time" aria-hidden="true" style={{ width: `${(GUTTER / WIDTH) * 100}%` }}>
            {timeline.timed ? 'time ↓' : 'order ↓'}
          </li>
          {LANES.map((lane) => (
            <li
              key={lane}
              className={`roles-lanes__lane roles-lanes__lane--${lane}${timeline.excluded && lane === 'trainer' ? ' roles-lanes__lane--unreached' : ''}`}
              style={{ width: `${(LANE_WIDTH / WIDTH) * 100}%` }}
            >
              <span className="roles-lanes__name">{lane}</span>
              <span className="roles-lanes__role">{LANE_ROLE[lane]}</span>
            </li>
          ))}
        </ol>
      </div>
      {events.length === 0 ? (
        <p className="placeholder">This rollout has no generations and no steps: there is nothing to show.</p>
      ) : (
        <SwimlaneDiagram
          count={events.length}
          eventAt={eventAt}
          rows={rows}
          height={height}
          current={play.index}
          excluded={timeline.excluded}
        />
      )}
    </section>
  );
}
