import type { ReactNode } from 'react';
import { isServedSource, type LoadSource, type ServedFile } from '../../load';
import { DEMO_RUN_FILES, DEMO_RUN_TRAINING_STEPS, demoRunIndex, openRun, openSources, type View } from '../../state';
import { BAR_PAGES } from '../routes';
import { OpenFilesButton } from '../shared/OpenFilesButton';
import { ServedFiles } from './ServedFiles';
import './shell.css';

/** What the demo run is, in the words the run page uses: training steps (the sampling weights), files. */
const DEMO_RUN_WORDS = `demo/run/ · ${DEMO_RUN_TRAINING_STEPS} training steps in ${DEMO_RUN_FILES} files`;

/** The app bar: what is open, and the way to open something else. */
interface Props {
  sources: readonly LoadSource[];
  isDemo: boolean;
  /** The committed demo training run is open. */
  isDemoRun: boolean;
  view: View;
  /** Files offered by `trajscope view`, or null on a plain static host. */
  served: ServedFile[] | null;
  /** A run opened from its index (`run=`): its name, and the run page among the pages. */
  run?: string;
  /** The search box (its own view folder; App composes it here). */
  search?: ReactNode;
}

export function Header({ sources, isDemo, isDemoRun: demoRunFiles, view, served, run, search }: Props) {
  // The demo run opened from its committed index (the run page), or as its 24 files (an older link).
  const demoRunIndexOpen = run !== undefined && run === demoRunIndex();
  const isDemoRun = demoRunFiles || demoRunIndexOpen;
  const names = sources.map((s) => (s.kind === 'url' && !isDemo && !isDemoRun && !isServedSource(s) ? s.url : s.name));
  return (
    <header className="app-header">
      <h1 className="app-header__brand">Trajscope</h1>
      <div className="app-header__source" title={names.join('\n')}>
        {run !== undefined && !demoRunIndexOpen && <span className="app-header__tag">Run</span>}
        {run !== undefined && !demoRunIndexOpen && <span className="app-header__names">{run}</span>}
        {isDemo && <span className="app-header__tag">Demo</span>}
        {isDemoRun && <span className="app-header__tag">Demo run</span>}
        {(run === undefined || demoRunIndexOpen) && (
          <span className="app-header__names">{isDemoRun ? DEMO_RUN_WORDS : names.join(', ')}</span>
        )}
        {isDemo && (
          <button
            type="button"
            className="app-header__switch"
            title={`A real GRPO run of the demo system, on its run page: ${DEMO_RUN_WORDS}, the policy learning from its rewards`}
            onClick={() => openRun(demoRunIndex())}
          >
            Open the demo training run
          </button>
        )}
        {isDemoRun && (
          <button type="button" className="app-header__switch" onClick={() => openSources([])}>
            Back to the single-file demo
          </button>
        )}
      </div>
      {served && <ServedFiles served={served} sources={sources} />}
      {search}
      <nav className="app-header__nav" aria-label="Pages">
        {BAR_PAGES.filter((p) => run !== undefined || !p.runOnly).map((p) => (
          <button
            key={p.label}
            type="button"
            className="app-header__navlink"
            aria-current={p.views.includes(view) ? 'page' : undefined}
            title={p.title}
            onClick={() => p.go()}
          >
            {p.label}
          </button>
        ))}
      </nav>
      <span className="app-header__hint">or drop files anywhere</span>
      <OpenFilesButton primary />
    </header>
  );
}
