import { READ_OPTIONS } from '../format';
import type { StepRange } from '../load';

export type { StepRange };

/*
 * Selection lives in the query string and nowhere else: `?src=A&src=B&rollout=K`. This module is the only
 * one that spells a parameter: it reads them into a typed `Selection`, and each navigation intent below is
 * a pure (search in, search out) function, so tests call them directly and every view reads the same
 * truth. `navigation.ts` applies the intents to the window's URL; views call those and never a parameter.
 */

const SRC_PARAM = 'src';
const ROLLOUT_PARAM = 'rollout';
/** Which page: the run list (absent), one rollout's inspector, or the GRPO groups. */
const VIEW_PARAM = 'view';
/** Inside a rollout: the tab (steps absent; tokens, audit, roles, raw). */
const TAB_PARAM = 'tab';
/** 1-based step number, as steps are numbered. */
const STEP_PARAM = 'step';
/** Token view source: a 0-based segment index, or `training` for the trainer's sequence. */
const SEQ_PARAM = 'seq';
/** 0-based token position in the token view's sequence. */
const TOKEN_PARAM = 'tok';
/** Advantage mode: absent for GRPO (std-normalised), `dr` for Dr. GRPO. */
const ADV_PARAM = 'adv';
/** Token view shading: absent for probability, `drift` for trainer-vs-sampler drift. */
const SHADE_PARAM = 'shade';
/**
 * A field mapping (JSON text, docs/formats.md) every source of the page is read with, as `--map` does
 * in the CLI: chosen in the app for a file it did not recognise, or given to `trajscope view --map`.
 */
const MAP_PARAM = READ_OPTIONS.mapping.param;
/** `unknown=finished`: rollouts with no recorded termination count as finished for the signal (an explicit choice). */
const UNKNOWN_PARAM = READ_OPTIONS.unknownAsFinished.param;
const UNKNOWN_AS_FINISHED = READ_OPTIONS.unknownAsFinished.word;
/** `scan=default`: the page runs the default scanner rules over each rollout (docs/scanners.md). */
const SCAN_PARAM = READ_OPTIONS.scanners.param;
const SCAN_DEFAULT = READ_OPTIONS.scanners.word;
/**
 * A scanner rule file the person opened (its JSON text, docs/scanners.md), run in place of the default
 * set as `lint --rules FILE` does, and the file's name it is shown by. Held as text, as `map` is.
 */
const RULES_PARAM = READ_OPTIONS.rules.param;
const RULES_NAME_PARAM = READ_OPTIONS.rules.nameParam;
/** Run list: only rollouts whose §10 max |d| is above this many nats (`mis=0.5`). */
const MISMATCH_PARAM = 'mis';
/** A whole run: the URL of its run index (the directory or its manifest.json), read by range (docs/adr/0015). */
const RUN_PARAM = 'run';
/** Training steps `A-B` (or `A`): the part of a run the run list and groups show, and the run page's selection. */
const STEPS_PARAM = 'steps';
/** Training steps `A-B` compared against `steps` on the run page. */
const VS_PARAM = 'vs';
/** The search query (src/analysis/search/query.ts), as typed. */
const QUERY_PARAM = 'q';
/** The two rollouts side by side on the compare page (`view=compare`): row keys, as `rollout=`. */
const COMPARE_A_PARAM = 'a';
const COMPARE_B_PARAM = 'b';
/** The checkpoints page's two cohorts (`view=checkpoints`): `policy:v3`, `steps:100-300`, `file:name`. */
const COHORT_A_PARAM = 'ca';
const COHORT_B_PARAM = 'cb';

type Param =
  | typeof SRC_PARAM
  | typeof ROLLOUT_PARAM
  | typeof VIEW_PARAM
  | typeof TAB_PARAM
  | typeof STEP_PARAM
  | typeof SEQ_PARAM
  | typeof TOKEN_PARAM
  | typeof ADV_PARAM
  | typeof SHADE_PARAM
  | typeof MAP_PARAM
  | typeof UNKNOWN_PARAM
  | typeof SCAN_PARAM
  | typeof RULES_PARAM
  | typeof RULES_NAME_PARAM
  | typeof MISMATCH_PARAM
  | typeof RUN_PARAM
  | typeof STEPS_PARAM
  | typeof VS_PARAM
  | typeof QUERY_PARAM
  | typeof COMPARE_A_PARAM
  | typeof COMPARE_B_PARAM
  | typeof COHORT_A_PARAM
  | typeof COHORT_B_PARAM;

/** Parameters to set (string) or remove (null); the others are kept. */
type Patch = Partial<Record<Param, string | null>>;

/** `run`: a run's trends over training steps, the page a run opens on. */
export type View = 'list' | 'rollout' | 'groups' | 'modes' | 'run' | 'search' | 'compare' | 'checkpoints' | 'queue' | 'regrade';
export type RolloutTab = 'steps' | 'tokens' | 'mismatch' | 'audit' | 'roles' | 'raw';
const TABS: readonly string[] = ['steps', 'tokens', 'mismatch', 'audit', 'roles', 'raw'] satisfies RolloutTab[];
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
  /** The default scanner rules run over each rollout (their hits are W_SCAN / E_SCAN findings). */
  scanners: boolean;
  /** A rule file's JSON text and name (validated where it is applied), run instead of the default set; null for none. */
  rules: { name: string; text: string } | null;
  /** Run list filter: only rollouts whose mismatch max |d| is above this (nats); null for none. */
  mismatchAbove: number | null;
  /** The run index URL (`run=`), or null when files are open. */
  run: string | null;
  /** Training steps selected (`steps=`), inclusive; null for all. */
  steps: StepRange | null;
  /** Training steps compared against `steps` (`vs=`). */
  vsSteps: StepRange | null;
  /** The search query as typed; empty for none. */
  query: string;
  /** The compare page's two rollout keys (both set when `view` is compare). */
  compare: { a: string; b: string } | null;
  /** The checkpoints page's cohorts as written (parsed where they are used); null for the default. */
  cohorts: { a: string | null; b: string | null };
}

function readRange(v: string | null): StepRange | null {
  const m = v === null ? null : /^(\d{1,9})(?:-(\d{1,9}))?$/.exec(v);
  if (!m) return null;
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  return { from: Math.min(a, b), to: Math.max(a, b) };
}

export function formatRange(r: StepRange): string {
  return r.from === r.to ? String(r.from) : `${r.from}-${r.to}`;
}

function nonNegativeInt(v: string | null): number | null {
  if (v === null || !/^\d{1,9}$/.test(v)) return null;
  return Number(v);
}

function nonNegativeNumber(v: string | null): number | null {
  if (v === null || !/^\d{1,9}(\.\d{1,12})?$/.test(v)) return null;
  return Number(v);
}

/**
 * The selection an address holds. Parsed once per address: every component reading the selection calls
 * this for the same string in a render (a rollout opened from the list: tens of URLSearchParams parses,
 * 1-3 ms, issue 25). Frozen, since it is shared: a caller that wants to change it makes its own.
 */
export const readSelection: (search: string) => Selection = lastPerAddress(parseSelection);

/** `parse`, keeping its last result by the address string, frozen (every reader shares it). */
function lastPerAddress<T>(parse: (search: string) => T): (search: string) => T {
  let last: { search: string; value: T } | null = null;
  return (search) => {
    if (last?.search !== search) last = { search, value: deepFreeze(parse(search)) };
    return last.value;
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function parseSelection(search: string): Selection {
  const params = new URLSearchParams(search);
  const sources = [...new Set(params.getAll(SRC_PARAM).filter((s) => s !== ''))];
  const rollout = params.get(ROLLOUT_PARAM) || null;
  const view = params.get(VIEW_PARAM);
  const tab = params.get(TAB_PARAM);
  const seq = params.get(SEQ_PARAM);
  const run = params.get(RUN_PARAM) || null;
  const a = params.get(COMPARE_A_PARAM);
  const b = params.get(COMPARE_B_PARAM);
  const compare = a && b ? { a, b } : null;
  const read = readParams(search);
  return {
    sources,
    rollout,
    // A run opens on its run page; its run list is `view=list`.
    view:
      view === 'groups' || view === 'modes' || view === 'search' || view === 'checkpoints' || view === 'queue' || view === 'regrade'
        ? view
        : view === 'compare' && compare !== null
          ? 'compare'
          : view === 'rollout' && rollout !== null
            ? 'rollout'
            : view === 'run' || (run !== null && view === null)
              ? 'run'
              : 'list',
    tab: isTab(tab) ? tab : 'steps',
    step: nonNegativeInt(params.get(STEP_PARAM)),
    seq: seq === 'training' ? 'training' : nonNegativeInt(seq),
    token: nonNegativeInt(params.get(TOKEN_PARAM)),
    drGrpo: params.get(ADV_PARAM) === 'dr',
    drift: params.get(SHADE_PARAM) === 'drift',
    mapping: read.map,
    unknownAsFinished: read.unknown === UNKNOWN_AS_FINISHED,
    scanners: read.scan === SCAN_DEFAULT,
    rules: read.rules,
    mismatchAbove: nonNegativeNumber(params.get(MISMATCH_PARAM)),
    run,
    steps: run === null ? null : readRange(params.get(STEPS_PARAM)),
    vsSteps: run === null ? null : readRange(params.get(VS_PARAM)),
    query: params.get(QUERY_PARAM) ?? '',
    compare,
    cohorts: { a: params.get(COHORT_A_PARAM) || null, b: params.get(COHORT_B_PARAM) || null },
  };
}

/** The read options' parameters as the address holds them (null where absent or empty), for `readChoiceOf` to check. */
export interface ReadParams {
  map: string | null;
  unknown: string | null;
  scan: string | null;
  /** A rule file's JSON text and the name it is shown by. */
  rules: { name: string; text: string } | null;
}

/** The read options' parameters, parsed once per address as readSelection. */
export const readParams: (search: string) => ReadParams = lastPerAddress(parseParams);

function parseParams(search: string): ReadParams {
  const params = new URLSearchParams(search);
  const rules = params.get(RULES_PARAM) || null;
  return {
    map: params.get(MAP_PARAM) || null,
    unknown: params.get(UNKNOWN_PARAM) || null,
    scan: params.get(SCAN_PARAM) || null,
    rules: rules === null ? null : { name: params.get(RULES_NAME_PARAM) || 'rules.json', text: rules },
  };
}

/** Sets (string) or removes (null) parameters, keeping every other one. */
function withParams(search: string, patch: Patch): string {
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
function formatSearch(params: URLSearchParams): string {
  const s = params.toString().replace(/%3A/gi, ':').replace(/%2F/gi, '/');
  return s === '' ? '' : `?${s}`;
}

/** What `readWith` may change: how every source is read and checked. */
export interface ReadPatch {
  mapping?: string | null;
  unknownAsFinished?: boolean;
  /** The default scanner rules on or off. */
  scanners?: boolean;
  /** A rule file (its name and JSON text), or null to turn it off. */
  rules?: { name: string; text: string } | null;
}

// ---------------------------------------------------------------------------------------------------
// Navigation intents: each is `search -> search`, and says whether Back should undo it (`push`).

export interface Intent {
  search: string;
  /** A new history entry (opening a page) rather than a replaced one (moving through rows or tokens). */
  push: boolean;
}

/** Leaving a rollout's inspector: what was selected inside it means nothing on another page. */
const INSIDE_ROLLOUT: Patch = { [TAB_PARAM]: null, [STEP_PARAM]: null, [SEQ_PARAM]: null, [TOKEN_PARAM]: null };

/** The run list: `view` absent for files, `view=list` for a run (whose page without `view` is the run page). */
const listView = (search: string): string | null => (new URLSearchParams(search).get(RUN_PARAM) ? 'list' : null);

const replace = (search: string, patch: Patch): Intent => ({ search: withParams(search, patch), push: false });
const push = (search: string, patch: Patch): Intent => ({ search: withParams(search, patch), push: true });

export const intents = {
  /** Opens other sources: whatever was selected inside the old ones no longer means anything (see withSources). */
  openSources: (sources: readonly string[], search = ''): Intent => ({ search: withSources(sources, search), push: true }),
  /**
   * How the sources are read (a field mapping, unknown terminations as finished): both change what every
   * rollout's summary says, so the load is redone, and Back undoes the choice.
   */
  readWith: (search: string, patch: ReadPatch): Intent =>
    push(search, {
      ...(patch.scanners === undefined ? {} : { [SCAN_PARAM]: patch.scanners ? SCAN_DEFAULT : null }),
      // One rule set at a time, as `--rules default|FILE`: turning one on turns the other off.
      ...(patch.scanners ? { [RULES_PARAM]: null, [RULES_NAME_PARAM]: null } : {}),
      ...(patch.rules === undefined
        ? {}
        : {
            [RULES_PARAM]: patch.rules?.text ?? null,
            [RULES_NAME_PARAM]: patch.rules?.name ?? null,
            ...(patch.rules ? { [SCAN_PARAM]: null } : {}),
          }),
      ...(patch.mapping === undefined ? {} : { [MAP_PARAM]: patch.mapping }),
      ...(patch.unknownAsFinished === undefined ? {} : { [UNKNOWN_PARAM]: patch.unknownAsFinished ? UNKNOWN_AS_FINISHED : null }),
    }),
  /** Selects a row of the run list (null clears it). */
  selectRollout: (search: string, key: string | null): Intent => ({ search: withRollout(search, key), push: false }),
  /** The search page with this query (typing replaces the entry; opening the page pushes one). */
  toSearch: (search: string, query: string): Intent =>
    push(search, { ...INSIDE_ROLLOUT, [VIEW_PARAM]: 'search', [QUERY_PARAM]: query || null }),
  setQuery: (search: string, query: string): Intent => replace(search, { [QUERY_PARAM]: query || null }),
  /** Two rollouts side by side; the selected rollout stays what it was. */
  toCompare: (search: string, a: string, b: string): Intent =>
    push(search, { ...INSIDE_ROLLOUT, [VIEW_PARAM]: 'compare', [COMPARE_A_PARAM]: a, [COMPARE_B_PARAM]: b }),
  /** The checkpoints page; each cohort given replaces the URL's (undefined keeps it). */
  toCheckpoints: (search: string, cohorts: { a?: string; b?: string } = {}): Intent =>
    push(search, {
      ...INSIDE_ROLLOUT,
      [VIEW_PARAM]: 'checkpoints',
      ...(cohorts.a === undefined ? {} : { [COHORT_A_PARAM]: cohorts.a }),
      ...(cohorts.b === undefined ? {} : { [COHORT_B_PARAM]: cohorts.b }),
    }),
  /** Opens a rollout's token view at a sequence and token (a search hit in generated or context text). */
  toToken: (search: string, key: string, seq: number, token: number): Intent =>
    push(search, {
      ...INSIDE_ROLLOUT,
      [ROLLOUT_PARAM]: key,
      [VIEW_PARAM]: 'rollout',
      [TAB_PARAM]: 'tokens',
      [SEQ_PARAM]: String(seq),
      [TOKEN_PARAM]: String(token),
    }),
  /** Opens one rollout's inspector, on a tab and step when given; Back returns to where it was opened. */
  toRollout: (search: string, key: string, tab?: RolloutTab, step?: number): Intent =>
    push(search, {
      ...INSIDE_ROLLOUT,
      [ROLLOUT_PARAM]: key,
      [VIEW_PARAM]: 'rollout',
      [TAB_PARAM]: tab ?? null,
      [STEP_PARAM]: step === undefined ? null : String(step),
    }),
  /** The run list, the rollout still selected there. */
  backToList: (search: string): Intent => push(search, { ...INSIDE_ROLLOUT, [VIEW_PARAM]: listView(search) }),
  /** The run list with nothing selected (after a link to a rollout the data does not have). */
  toAllRollouts: (search: string): Intent => push(search, { [VIEW_PARAM]: listView(search), [ROLLOUT_PARAM]: null }),
  /** Opens a run from its index URL (the run page); whatever was open before means nothing there. */
  openRun: (run: string): Intent => ({ search: formatSearch(new URLSearchParams({ [RUN_PARAM]: run })), push: true }),
  /** The run page, the step selection kept. */
  toRun: (search: string): Intent => push(search, { ...INSIDE_ROLLOUT, [VIEW_PARAM]: null, [ROLLOUT_PARAM]: null }),
  /** Selects training steps on the run page (null: none), or the range compared against them. */
  selectSteps: (search: string, range: StepRange | null): Intent =>
    replace(search, { [STEPS_PARAM]: range === null ? null : formatRange(range) }),
  compareSteps: (search: string, range: StepRange | null): Intent =>
    replace(search, { [VS_PARAM]: range === null ? null : formatRange(range) }),
  /** Opens training steps' rollouts in the run list (or their groups); Back returns to the run page. */
  openSteps: (search: string, range: StepRange, view: 'list' | 'groups'): Intent =>
    push(search, { ...INSIDE_ROLLOUT, [VIEW_PARAM]: view, [ROLLOUT_PARAM]: null, [STEPS_PARAM]: formatRange(range) }),
  /** The GRPO groups page, the selected rollout's group brought into view. */
  toGroups: (search: string): Intent => push(search, { ...INSIDE_ROLLOUT, [VIEW_PARAM]: 'groups' }),
  /** The review queue page (docs/review-queue.md); the selected rollout is the queue's current item. */
  toQueue: (search: string): Intent => push(search, { ...INSIDE_ROLLOUT, [VIEW_PARAM]: 'queue' }),
  /** The regrade page: a regrade's flips and what they change (docs/adr/0025). */
  toRegrade: (search: string): Intent => push(search, { ...INSIDE_ROLLOUT, [VIEW_PARAM]: 'regrade' }),
  /** The failure modes page (docs/failure-modes.md). */
  toModes: (search: string): Intent => push(search, { ...INSIDE_ROLLOUT, [VIEW_PARAM]: 'modes' }),
  /** Another tab of the open rollout. */
  showTab: (search: string, tab: RolloutTab): Intent => replace(search, { [TAB_PARAM]: tab === 'steps' ? null : tab }),
  selectStep: (search: string, step: number): Intent => replace(search, { [STEP_PARAM]: String(step) }),
  /** A sequence of the token view (a segment index or the trainer's), with a token or none. */
  selectToken: (search: string, seq: number | 'training', token: number | null): Intent =>
    replace(search, { [TAB_PARAM]: 'tokens', [SEQ_PARAM]: String(seq), [TOKEN_PARAM]: token === null ? null : String(token) }),
  /** Shows where a finding points in the token view, shaded by drift when it is about drift. */
  showTokenTarget: (search: string, target: { seq: number | 'training'; token: number | null; drift: boolean }): Intent =>
    replace(search, {
      // Also from another tab (the Steps view's rewrite, the mismatch panel's tokens): it opens the token view.
      [TAB_PARAM]: 'tokens',
      [SEQ_PARAM]: String(target.seq),
      [TOKEN_PARAM]: target.token === null ? null : String(target.token),
      ...(target.drift ? { [SHADE_PARAM]: 'drift' } : {}),
    }),
  /** Token view shading: by drift, or by probability. */
  shadeByDrift: (search: string, drift: boolean): Intent => replace(search, { [SHADE_PARAM]: drift ? 'drift' : null }),
  /** The run list's "mismatch above X" filter (null removes it); a negative or non-finite X is no filter. */
  mismatchAbove: (search: string, above: number | null): Intent =>
    replace(search, { [MISMATCH_PARAM]: above === null || !Number.isFinite(above) || above < 0 ? null : String(above) }),
  /** Advantages under Dr. GRPO (`r - mean`) or GRPO. */
  advantageMode: (search: string, drGrpo: boolean): Intent => replace(search, { [ADV_PARAM]: drGrpo ? 'dr' : null }),
} as const;
