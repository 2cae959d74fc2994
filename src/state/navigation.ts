import { navigate } from './location';
import { type Intent, intents, type ReadPatch, type RolloutTab, type StepRange } from './url';

/*
 * The navigation intents, applied to this window's URL. Views call these; the parameters they set are
 * url.ts's business alone.
 */

function go(intent: Intent): void {
  navigate(intent.search, { replace: !intent.push });
}

const here = () => window.location.search;

export const openSources = (ids: readonly string[]) => go(intents.openSources(ids, here()));
export const openRun = (run: string) => go(intents.openRun(run));
export const readWith = (patch: ReadPatch) => go(intents.readWith(here(), patch));
export const selectRollout = (key: string | null) => go(intents.selectRollout(here(), key));
export const toRollout = (key: string, tab?: RolloutTab, step?: number) => go(intents.toRollout(here(), key, tab, step));
export const backToList = () => go(intents.backToList(here()));
export const toAllRollouts = () => go(intents.toAllRollouts(here()));
export const toGroups = () => go(intents.toGroups(here()));
export const toModes = () => go(intents.toModes(here()));
export const toQueue = () => go(intents.toQueue(here()));
export const toRegrade = () => go(intents.toRegrade(here()));
export const showTab = (tab: RolloutTab) => go(intents.showTab(here(), tab));
export const selectStep = (step: number) => go(intents.selectStep(here(), step));
export const selectToken = (seq: number | 'training', token: number | null) => go(intents.selectToken(here(), seq, token));
export const showTokenTarget = (target: { seq: number | 'training'; token: number | null; drift: boolean }) =>
  go(intents.showTokenTarget(here(), target));
export const shadeByDrift = (drift: boolean) => go(intents.shadeByDrift(here(), drift));
export const filterMismatchAbove = (above: number | null) => go(intents.mismatchAbove(here(), above));
export const setAdvantageMode = (drGrpo: boolean) => go(intents.advantageMode(here(), drGrpo));
export const toRun = () => go(intents.toRun(here()));
export const selectSteps = (range: StepRange | null) => go(intents.selectSteps(here(), range));
export const compareSteps = (range: StepRange | null) => go(intents.compareSteps(here(), range));
export const openSteps = (range: StepRange, view: 'list' | 'groups' = 'list') => go(intents.openSteps(here(), range, view));

/**
 * A site `trajscope bundle` wrote names its run in a meta tag of its page: a visit whose URL names
 * nothing opens that run (in place of the empty entry, so Back leaves the site).
 */
export function openBundledRun(): void {
  const run = document.querySelector('meta[name="trajscope-run"]')?.getAttribute('content');
  if (run && window.location.search === '') go({ ...intents.openRun(run), push: false });
}
export const toSearch = (query: string) => go(intents.toSearch(here(), query));
export const setQuery = (query: string) => go(intents.setQuery(here(), query));
export const toCompare = (a: string, b: string) => go(intents.toCompare(here(), a, b));
export const toToken = (key: string, seq: number, token: number) => go(intents.toToken(here(), key, seq, token));
export const toCheckpoints = (cohorts: { a?: string; b?: string } = {}) => go(intents.toCheckpoints(here(), cohorts));
