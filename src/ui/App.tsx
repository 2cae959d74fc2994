import { useEffect, useState } from 'react';
import { type DataSource, DataSourceProvider, useDataSource, useSelection } from '../state';
import { FileDrop, FilesNotices, FilesStatus } from './FilesParts';
import { ProblemsPanel } from './problems/ProblemsPanel';
import { RunNotices, TooManyToList } from './RunParts';
import { PLACEHOLDER, type Route, RoutePage, routeOf } from './routes';
import { SearchBox } from './search/SearchBox';
import { HIDDEN_PAGE, KeptPageVisible } from './shared/keptPage';
import { Header } from './shell/Header';

/** The page: what the URL opens (files, or a run read from its index: `?run=`) and the URL's view of it. */
export function App() {
  return (
    <DataSourceProvider>
      <Shell />
    </DataSourceProvider>
  );
}

/**
 * The one shell, for files and runs alike: the app bar, the source's notices, the view's page from the
 * route table (or why it cannot show yet), the problems panel. The source's kind picks its own parts.
 */
function Shell() {
  const source = useDataSource();
  const { view } = useSelection();
  const route = routeOf(view, source.kind === 'run');
  const kept = useKeptRoutes(route);
  // A lazy page's script (the run page's, with the chart library) loads while the data is read, not after.
  useEffect(() => {
    void route.load?.();
  }, [route]);
  return (
    <div className="app">
      <Header {...source.header} view={view} search={source.hasData && <SearchBox />} />
      <main className="app-main">
        {source.kind === 'files' ? <FilesNotices source={source} view={view} /> : <RunNotices source={source} view={view} />}
        {kept
          .filter((r) => source.hasData || (r.beforeData && source.status === 'loading'))
          .map((r) => (
            // Hidden, not disconnected (shared/keptPage.ts): in place, not drawn, the same width.
            <div key={r.view} className={r === route ? 'kept-page' : `kept-page ${HIDDEN_PAGE}`}>
              <KeptPageVisible value={r === route}>{tooManyToList(source, r) ?? <RoutePage route={r} />}</KeptPageVisible>
            </div>
          ))}
        <Page source={source} route={route} />
      </main>
      {source.hasData && !route.noProblems && <ProblemsPanel />}
      {source.kind === 'files' && <FileDrop />}
    </div>
  );
}

/** The view's page, unless it is kept (drawn above), the data is not there yet, or a run is too big to list whole. */
function Page({ source, route }: { source: DataSource; route: Route }) {
  if (source.status !== 'ready') {
    if (source.kind === 'files') return <FilesStatus source={source} />;
    // A run that could not be read says why in its banner; a page drawn before the data is drawn above.
    return source.status === 'failed' || route.beforeData ? null : PLACEHOLDER;
  }
  if (route.keep) return null;
  return tooManyToList(source, route) ?? <RoutePage route={route} />;
}

/** Why a page that lists rollouts one by one does not show a run too big to list whole, or null. */
function tooManyToList(source: DataSource, route: Route) {
  return source.kind === 'run' && source.tooManyToList !== null && !route.wholeRun ? <TooManyToList rows={source.tooManyToList} /> : null;
}

/** The routes marked `keep` shown so far: once shown they stay mounted, hidden while another page is open. */
function useKeptRoutes(route: Route): readonly Route[] {
  const [kept, setKept] = useState<readonly Route[]>(route.keep ? [route] : []);
  if (route.keep && !kept.includes(route)) setKept([...kept, route]);
  return kept;
}
