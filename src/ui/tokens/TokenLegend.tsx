import { memo } from 'react';
import type { ShadeMode } from './chipStyle';
import { ROLE_INFO, ROLE_ORDER } from './roles';
import { driftLevels, PROBABILITY_LEVELS } from './shade';

/** Every style a chip can take, named: roles first (what carries loss), then the active shading scale. */
export const TokenLegend = memo(function TokenLegend({ mode, threshold }: { mode: ShadeMode; threshold: number }) {
  return (
    <section className="tok-legend" aria-label="Legend">
      <ul className="tok-legend__roles">
        {ROLE_ORDER.map((role) => {
          const info = ROLE_INFO[role];
          return (
            <li key={role} title={info.meaning}>
              <span className={`tok tok--${info.name} tok--swatch`} data-role={info.name} aria-hidden="true">
                ab
              </span>
              <span>{info.legend}</span>
            </li>
          );
        })}
      </ul>
      {mode === 'probability' ? (
        <div className="tok-legend__scale">
          <span className="tok-legend__name">Sampled probability p = exp(old_logprob):</span>
          <span className="faint">confident</span>
          {PROBABILITY_LEVELS.map((l, i) => (
            <span key={l.label} className={`tok tok--trained tok--p${i} tok--swatch`}>
              {l.label}
            </span>
          ))}
          <span className="faint">surprising</span>
          <span className="tok-legend__note">
            <span className="tok tok--trained tok--pnone tok--swatch"> </span>no sampled log-prob · masked tokens show p as an underline
          </span>
        </div>
      ) : (
        <div className="tok-legend__scale">
          <span className="tok-legend__name">Drift |trainer − sampled| (nat):</span>
          {driftLevels(threshold).map((l, i) => (
            <span key={l.label} className={`tok tok--trained tok--d${i} tok--swatch`}>
              {l.label}
            </span>
          ))}
          <span className="tok tok--trained tok--dnone tok--swatch">not compared</span>
          <span className="tok-legend__note">above {threshold} nat is W_LOGPROB_DRIFT</span>
        </div>
      )}
      <span className="tok-legend__selected">
        <span className="tok tok--context tok--selected tok--swatch" aria-hidden="true">
          ab
        </span>
        selected
      </span>
    </section>
  );
});
