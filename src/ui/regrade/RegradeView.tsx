import { useMemo, useState } from 'react';
import { formatCount, plural, type RegradeEffect, regradeGraders } from '../../analysis';
import { REGRADE_DIR } from '../../format';
import { type LoadedRegrade, useRegrade } from '../../load';
import { useRolloutKeys, useSelection } from '../../state';
import { AdvantageModeToggle } from '../shared/AdvantageModeToggle';
import { FlipsTable } from './FlipsTable';
import { GroupChanges } from './GroupChanges';
import { RegradeOpenButton } from './RegradeOpenButton';
import { RewardTrend } from './RewardTrend';
import { changedSteps, errorsText, otherFlips } from './regradeModel';
import { useRegradeEffect } from './useRegradeEffect';
import './regrade.css';

const COMMAND = `trajscope regrade RUN --grader 'node $PWD/my-grader.mjs' --out RUN/${REGRADE_DIR}\ntrajscope view RUN`;

/**
 * The Regrade page (issue 27, item 2): for a regrade of the loaded rollouts (`trajscope regrade`, docs/adr/0025),
 * the rollouts whose verdict changed and, with the new rewards, the GRPO advantages, the groups whose statistics
 * changed, the zero-variance groups and the reward trend by training step, beside the old.
 */
export function RegradeView() {
  const { loaded, isPending, error } = useRegrade();
  if (isPending) return <div className="placeholder" aria-busy="true" />;
  if (error !== null || loaded === null) return <NoRegrade error={error} />;
  return <RegradePage loaded={loaded} />;
}

function NoRegrade({ error }: { error: string | null }) {
  return (
    <div className="placeholder regrade-none">
      <h2>{error === null ? 'No regrade here yet' : 'The regrade could not be read'}</h2>
      {error !== null ? (
        <p className="data-file-open__error" role="alert">
          {error}
        </p>
      ) : (
        <p>
          A regrade runs another grader over the stored artifacts and records each rollout’s new verdict. Write it into the run, and{' '}
          <code>trajscope view</code> shows it here:
        </p>
      )}
      <pre className="regrade-none__command">{COMMAND}</pre>
      <p>Or open its table (regrade.parquet, or regrade.journal while it runs):</p>
      <RegradeOpenButton primary />
    </div>
  );
}

function RegradePage({ loaded }: { loaded: LoadedRegrade }) {
  const graders = useMemo(() => regradeGraders(loaded.rows), [loaded.rows]);
  const [picked, setPicked] = useState<string | null>(null);
  const grader = picked !== null && graders.includes(picked) ? picked : (graders[0] ?? '');
  const effect = useRegradeEffect(loaded.rows, grader);
  const keys = useRolloutKeys();
  const { drGrpo } = useSelection();
  return (
    <div className="regrade">
      <header className="regrade__head">
        <div className="regrade__title">
          <h2>Regrade</h2>
          <p className="faint">
            {plural(loaded.rows.length, 'row')} from <code>{loaded.from}</code>
            {graders.length > 1 ? ` · ${graders.length} grader commands` : ''}
          </p>
        </div>
        {graders.length > 1 ? (
          <label className="regrade__grader">
            Grader
            <select value={grader} onChange={(e) => setPicked(e.target.value)}>
              {graders.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <p className="regrade__grader">
            Grader <code title={grader}>{grader === '' ? 'none' : grader}</code>
          </p>
        )}
        <AdvantageModeToggle drGrpo={drGrpo} />
        <RegradeOpenButton />
      </header>
      <Summary effect={effect} />
      <p className="faint regrade__matching">
        {formatCount(effect.matched)} of the table’s {plural(effect.matched + effect.unmatched, 'row')} for this grader matched a loaded
        rollout: by file and line, else by rollout key
        {effect.matchedByKey > 0 ? ` (${formatCount(effect.matchedByKey)} by key: the table names their files otherwise)` : ''}.
      </p>
      <section className="regrade__section" aria-label="Reward trend">
        <h3>Reward by training step</h3>
        {effect.trend.length > 0 ? (
          <>
            <p className="faint">
              {plural(changedSteps(effect.trend), 'training step')} of {formatCount(effect.trend.length)} changed.
            </p>
            <RewardTrend trend={effect.trend} />
          </>
        ) : (
          <p className="faint">The loaded rollouts carry no training step, so there is no trend to redraw.</p>
        )}
      </section>
      <section className="regrade__section" aria-label="Flips">
        <h3>Flips ({formatCount(effect.flips.length)})</h3>
        <p className="faint">
          Rollouts whose verdict or reward changed, with their advantage in their group before and after ({drGrpo ? 'Dr. GRPO' : 'GRPO'}).
        </p>
        <FlipsTable flips={effect.flips} keys={keys} />
      </section>
      <section className="regrade__section" aria-label="Changed groups">
        <h3>Groups whose statistics changed ({formatCount(effect.changedGroups.length)})</h3>
        <ZeroVariance effect={effect} />
        <GroupChanges groups={effect.changedGroups} />
      </section>
    </div>
  );
}

function Summary({ effect: e }: { effect: RegradeEffect }) {
  const errors = [...e.errors.values()].reduce((a, b) => a + b, 0);
  const other = otherFlips(e);
  return (
    <dl className="regrade-summary" aria-label="Regrade summary">
      <div>
        <dt>Regraded</dt>
        <dd>{formatCount(e.regraded)}</dd>
      </div>
      <div>
        <dt>Errors (old reward kept)</dt>
        <dd>
          {formatCount(errors)} <span className="faint">{errors > 0 ? errorsText(e.errors) : ''}</span>
        </dd>
      </div>
      <div>
        <dt>fail → pass</dt>
        <dd className={e.failToPass > 0 ? 'regrade-changed' : undefined}>{formatCount(e.failToPass)}</dd>
      </div>
      <div>
        <dt>pass → fail</dt>
        <dd className={e.passToFail > 0 ? 'regrade-changed' : undefined}>{formatCount(e.passToFail)}</dd>
      </div>
      {other > 0 && (
        <div>
          <dt>Other changes</dt>
          <dd>{formatCount(other)}</dd>
        </div>
      )}
      <div>
        <dt>Rows matching no loaded rollout</dt>
        <dd
          title={
            e.matchedByKey > 0
              ? `${formatCount(e.matchedByKey)} rows matched by rollout key: the table names their files otherwise`
              : undefined
          }
        >
          {formatCount(e.unmatched)}
        </dd>
      </div>
      {e.oldRewardDiffers > 0 && (
        <div>
          <dt>Old reward not the loaded one</dt>
          <dd className="regrade-changed" title="The source changed since the regrade: its rows may not be these rollouts">
            {formatCount(e.oldRewardDiffers)}
          </dd>
        </div>
      )}
    </dl>
  );
}

function ZeroVariance({ effect: e }: { effect: RegradeEffect }) {
  const names = (ids: readonly string[]) => (ids.length > 3 ? `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more` : ids.join(', '));
  return (
    <p className="faint">
      Zero-variance groups (no learning signal): {formatCount(e.zeroVarianceBefore)} before, {formatCount(e.zeroVarianceAfter)} after
      {e.becameZeroVariance.length > 0 && <>; became so: {names(e.becameZeroVariance)}</>}
      {e.stoppedZeroVariance.length > 0 && <>; no longer: {names(e.stoppedZeroVariance)}</>}.
    </p>
  );
}
