import { useEffect, useMemo, useReducer, useState } from 'react';
import { formatCount, plural, type RolePages, rolePageEvents, rolePagesPass } from '../../analysis';
import type { Rollout } from '../../format';
import { isHugeRecord, PAGE_TURNS } from '../../load';
import { selectStep, useSelectedRollout, useSelection } from '../../state';
import { BuildingNote } from '../shared/BuildingNote';
import { TurnPager } from '../shared/TurnPager';
import { turnsOfPage } from '../shared/turnPages';
import { usePass } from '../shared/usePass';
import { LANE_ROLE, LANES, lazyWords } from './events';
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
  return selected?.record ? <RolesPaged rolloutKey={selected.key} record={selected.record} steps={selected.summary.steps} /> : null;
}

/**
 * The pages of the diagram: at once, or for a huge rollout counted in slices with a note saying how far.
 * A huge rollout's are `PAGE_TURNS` turns each; one that is not huge is one page, drawn as before issue 18.
 */
function RolesPaged({ rolloutKey, record, steps }: { rolloutKey: string; record: Rollout; steps: number }) {
  const huge = isHugeRecord(record);
  const { value: pages, done } = usePass(() => rolePagesPass(record, huge ? PAGE_TURNS : Number.MAX_SAFE_INTEGER), huge, [record]);
  if (!pages) return <BuildingNote what={`Laying out the four roles of ${plural(steps, 'step')}`} done={done} />;
  return <Roles rolloutKey={rolloutKey} record={record} pages={pages} />;
}

/** The page an event is on: the last page whose first event is at or before it. */
function pageOfEvent(starts: readonly number[], event: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= event) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function Roles({ rolloutKey, record, pages }: { rolloutKey: string; record: Rollout; pages: RolePages }) {
  const total = pages.starts.at(-1) ?? 0;
  const pageTotal = pages.starts.length - 1;
  const [play, dispatch] = useReducer((s: Playback, a: PlaybackAction) => playbackStep(s, a, total), INITIAL_PLAYBACK);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(1);
  const { step: urlStep } = useSelection();
  const stepCount = record.steps?.length ?? 0;
  const pageOfStep = (step: number | null) =>
    step !== null && step >= 1 && step <= stepCount ? Math.floor((pages.turns.turnOfStep[step] ?? 0) / pages.per) : null;

  // A huge rollout shows one page of turns: the URL's step's, then the played event's, or the pager's.
  const [page, setPage] = useState(() => pageOfStep(urlStep) ?? 0);
  const [followed, setFollowed] = useState({ index: play.index, step: urlStep });
  if (followed.index !== play.index || followed.step !== urlStep) {
    setFollowed({ index: play.index, step: urlStep });
    if (followed.index !== play.index && play.index >= 0) setPage(pageOfEvent(pages.starts, play.index));
    else if (followed.step !== urlStep) setPage(pageOfStep(urlStep) ?? page);
  }
  const offset = pages.starts[page] ?? 0;
  const events = useMemo(() => rolePageEvents(record, pages, page), [record, pages, page]);
  const eventAt = useMemo(() => lazyWords(events, record), [events, record]);
  const { rows, height } = useMemo(() => layoutRows(events), [events]);
  const current = play.index >= offset ? eventAt(play.index - offset) : undefined;
  // Only a paged diagram opens at the URL's step: its first event on the page.
  const reveal = useMemo(() => {
    if (pageTotal === 1 || urlStep === null) return -1;
    return events.findIndex((e) => e.step === urlStep);
  }, [events, urlStep, pageTotal]);
  const timeline = pages;

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
              {play.playing ? 'Pause' : play.index >= total - 1 && play.index >= 0 ? 'Replay' : 'Play'}
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
              disabled={play.index >= total - 1}
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
                {formatCount(play.index + 1)} / {formatCount(total)}
              </span>
              {current.caption}
            </>
          ) : (
            <>
              <span className="roles__counter">{plural(total, 'event')}</span>
              Press Play to step through this rollout, from the model's first generation to {end}.
            </>
          )}
        </p>
        {pageTotal > 1 && (
          <TurnPager
            label="Events"
            page={page}
            pages={pageTotal}
            {...turnsOfPage(page, pages.turns.length, pages.per)}
            turns={pages.turns.length}
            onPage={setPage}
            onGoToStep={selectStep}
            steps={stepCount}
          />
        )}
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
      {total === 0 ? (
        <p className="placeholder">This rollout has no generations and no steps: there is nothing to show.</p>
      ) : (
        <SwimlaneDiagram
          key={page}
          count={events.length}
          offset={offset}
          total={total}
          eventAt={eventAt}
          rows={rows}
          height={height}
          current={play.index}
          reveal={reveal}
          excluded={timeline.excluded}
        />
      )}
    </section>
  );
}
