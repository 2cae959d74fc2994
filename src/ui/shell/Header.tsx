import { isServedSource, type LoadSource, type ServedFile } from '../../load';
import { backToList, toGroups, type View } from '../../state';
import { OpenFilesButton } from '../shared/OpenFilesButton';
import { ServedFiles } from './ServedFiles';
import './shell.css';

/** The app bar: what is open, and the way to open something else. */
interface Props {
  sources: readonly LoadSource[];
  isDemo: boolean;
  view: View;
  /** Files offered by `trajscope view`, or null on a plain static host. */
  served: ServedFile[] | null;
}

export function Header({ sources, isDemo, view, served }: Props) {
  const names = sources.map((s) => (s.kind === 'url' && !isDemo && !isServedSource(s) ? s.url : s.name));
  return (
    <header className="app-header">
      <h1 className="app-header__brand">Trajscope</h1>
      <div className="app-header__source" title={names.join('\n')}>
        {isDemo && <span className="app-header__tag">Demo</span>}
        <span className="app-header__names">{names.join(', ')}</span>
      </div>
      {served && <ServedFiles served={served} sources={sources} />}
      <nav className="app-header__nav" aria-label="Pages">
        <button type="button" className="app-header__navlink" aria-current={view !== 'groups' ? 'page' : undefined} onClick={backToList}>
          Rollouts
        </button>
        <button type="button" className="app-header__navlink" aria-current={view === 'groups' ? 'page' : undefined} onClick={toGroups}>
          Groups
        </button>
      </nav>
      <span className="app-header__hint">or drop files anywhere</span>
      <OpenFilesButton primary />
    </header>
  );
}
