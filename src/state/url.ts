/*
 * Selection lives in the query string and nowhere else: `?src=A&src=B&rollout=K`. These functions are
 * pure (string in, string out) so tests call them directly and every view reads the same truth.
 */

export const SRC_PARAM = 'src';
export const ROLLOUT_PARAM = 'rollout';
/** Which page: the run list (absent), one rollout's inspector, or the GRPO groups. */
export const VIEW_PARAM = 'view';
/** Inside a rollout: the tab (steps, tokens, raw). */
export const TAB_PARAM = 'tab';
/** 1-based step number, as steps are numbered. */
export const STEP_PARAM = 'step';
/** Token view source: a 0-based segment index, or `training` for the trainer's sequence. */
export const SEQ_PARAM = 'seq';
/** 0-based token position in the token view's sequence. */
export const TOKEN_PARAM = 'tok';
/** Advantage mode: absent for GRPO (std-normalised), `dr` for Dr. GRPO. */
export const ADV_PARAM = 'adv';
/** Token view shading: absent for probability, `drift` for trainer-vs-sampler drift. */
export const SHADE_PARAM = 'shade';

/**
 * A field mapping (JSON text, docs/formats.md) every source of the page is read with, as `--map` does
 * in the CLI: chosen in the app for a file it did not recognise, or given to `trajscope view --map`.
 */
export const MAP_PARAM = 'map';
/** `unknown=finished`: rollouts with no recorded termination count as finished for the signal (an explicit choice). */
export const UNKNOWN_PARAM = 'unknown';
export const UNKNOWN_AS_FINISHED = 'finished';

export type View = 'list' | 'rollout' | 'groups';
export type RolloutTab = 'steps' | 'tokens' | 'audit' | 'roles' | 'raw';
const TABS: readonly string[] = ['steps', 'tokens', 'audit', 'roles', 'raw'] satisfies RolloutTab[];
function isTab(v: string | null): v is RolloutTab {
  return v !== null && TABS.includes(v);
}
/** A source opened from the person's disk; the File itself is in the UI store and does not survive a reload. */
export const LOCAL_PREFIX = 'local:';

export interface Selection {
  /** Source ids in order: `local:<name>` or a URL. Empty means the embedded demo. */
  sources: string[];
  rollout: string | null;
  view: View;
  tab: RolloutTab;
  step: number | null;
  /** Token view sequence: a segment index or 'training'; null for the default. */
  seq: number | 'training' | null;
  token: number | null;
  drGrpo: boolean;
  /** Token view shades by drift (trainer vs sampler log-probs) rather than probability. */
  drift: boolean;
  /** The field mapping's JSON text, as the URL holds it (validated where it is applied); null for none. */
  mapping: string | null;
  /** Rollouts whose termination is `unknown` count as finished for group statistics. */
  unknownAsFinished: boolean;
}

function nonNegativeInt(v: string | null): number | null {
  if (v === null || !/^\d{1,9}$/.test(v)) return null;
  return Number(v);
}

export function readSelection(search: string): Selection {
  const params = new URLSearchParams(search);
  const sources = [...new Set(params.getAll(SRC_PARAM).filter((s) => s !== ''))];
  const rollout = params.get(ROLLOUT_PARAM) || null;
  const view = params.get(VIEW_PARAM);
  const tab = params.get(TAB_PARAM);
  const seq = params.get(SEQ_PARAM);
  return {
    sources,
    rollout,
    view: view === 'groups' ? 'groups' : view === 'rollout' && rollout !== null ? 'rollout' : 'list',
    tab: isTab(tab) ? tab : 'steps',
    step: nonNegativeInt(params.get(STEP_PARAM)),
    seq: seq === 'training' ? 'training' : nonNegativeInt(seq),
    token: nonNegativeInt(params.get(TOKEN_PARAM)),
    drGrpo: params.get(ADV_PARAM) === 'dr',
    drift: params.get(SHADE_PARAM) === 'drift',
    mapping: params.get(MAP_PARAM) || null,
    unknownAsFinished: params.get(UNKNOWN_PARAM) === UNKNOWN_AS_FINISHED,
  };
}

/** How the sources are read: both change what every rollout's summary says, so they are part of the load. */
export function withReadOptions(search: string, patch: { mapping?: string | null; unknownAsFinished?: boolean }): string {
  const p: Record<string, string | null> = {};
  if (patch.mapping !== undefined) p[MAP_PARAM] = patch.mapping;
  if (patch.unknownAsFinished !== undefined) p[UNKNOWN_PARAM] = patch.unknownAsFinished ? UNKNOWN_AS_FINISHED : null;
  return withParams(search, p);
}

/** Sets (string) or removes (null) parameters, keeping every other one. */
export function withParams(search: string, patch: Record<string, string | null>): string {
  const params = new URLSearchParams(search);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) params.delete(k);
    else params.set(k, v);
  }
  return formatSearch(params);
}

/**
 * Opens other sources: whatever was selected inside the old ones no longer means anything, nor does a
 * mapping chosen for them. Counting unknown terminations as finished is a way of reading, and stays.
 */
export function withSources(sources: readonly string[], search = ''): string {
  const params = new URLSearchParams();
  for (const s of sources) params.append(SRC_PARAM, s);
  const unknown = new URLSearchParams(search).get(UNKNOWN_PARAM);
  if (unknown !== null) params.set(UNKNOWN_PARAM, unknown);
  return formatSearch(params);
}

/** Selects a rollout (null clears it), keeping the sources and any other parameter. */
export function withRollout(search: string, rollout: string | null): string {
  const params = new URLSearchParams(search);
  if (rollout === null) params.delete(ROLLOUT_PARAM);
  else params.set(ROLLOUT_PARAM, rollout);
  return formatSearch(params);
}

export function isLocalSource(id: string): boolean {
  return id.startsWith(LOCAL_PREFIX);
}

/** URLSearchParams escapes ':' and '/', which are legal in a query; keep them so links stay readable. */
export function formatSearch(params: URLSearchParams): string {
  const s = params.toString().replace(/%3A/gi, ':').replace(/%2F/gi, '/');
  return s === '' ? '' : `?${s}`;
}
