export {
  openSources,
  selectRollout,
  useLocalFiles,
  useNotice,
  useProblemsOpen,
  useSelectedRolloutKey,
  useSourceIds,
  useUiActions,
} from './hooks';
export { navigate, useSearch } from './location';
export type { Selection } from './url';
export { isLocalSource, LOCAL_PREFIX, readSelection } from './url';
export type { ResolvedSources } from './useSources';
export { DEMO_URL, useSources } from './useSources';
