import type { LoadSource } from '../../load';
import { OpenFilesButton } from '../open/OpenFilesButton';
import './shell.css';

/** The app bar: what is open, and the way to open something else. */
export function Header({ sources, isDemo }: { sources: readonly LoadSource[]; isDemo: boolean }) {
  const names = sources.map((s) => (s.kind === 'url' && !isDemo ? s.url : s.name));
  return (
    <header className="app-header">
      <h1 className="app-header__brand">Trajscope</h1>
      <div className="app-header__source" title={names.join('\n')}>
        {isDemo && <span className="app-header__tag">Demo</span>}
        <span className="app-header__names">{names.join(', ')}</span>
      </div>
      <span className="app-header__hint">or drop files anywhere</span>
      <OpenFilesButton primary />
    </header>
  );
}
