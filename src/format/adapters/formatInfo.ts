import type { FormatId } from './types';

/**
 * What the program knows of each format apart from reading it: its label, the names and endings of its
 * files, its row of docs/formats.md (issue 30: these were tables kept by hand in ten files, which
 * disagreed). Detection order (detect.ts RULES) and the converters (convertValue.ts) are tables of their
 * own, each checked by the compiler or a test: joined into one, the workers that only detect or name
 * formats bundled every converter (+54 KB in the lines and shard workers; docs/adr/0024).
 */
export interface FormatInfo {
  /** What a person reads when a file was converted. */
  label: string;
  /** The names the tool gives its files: tried only when no content rule matched (so errors name the right fields). */
  names?: RegExp;
  /** How a file's name ends (the Open dialog, the drop overlay and the CLI's trajectory-file rule). */
  extensions: readonly string[];
  /**
   * A top-level JSON array is one value converted once, wrapped under this key (`{events: [...]}`: an
   * OpenHands event list is one rollout; `{spans: [...]}`: a trace's spans), not a list of records.
   */
  wholeArray?: 'events' | 'spans';
  /** Its row of the table in docs/formats.md: what it is, its files, how they are read (a test keeps them equal). */
  docs: { what: string; file: string; read: string };
}

export const FORMAT_INFO: Record<FormatId, FormatInfo> = {
  v1: {
    label: 'Trajscope v1',
    extensions: ['.jsonl', '.jsonl.gz'],
    docs: { what: 'Trajscope v1', file: '`*.jsonl`', read: 'line by line' },
  },
  'verifiers-traces': {
    label: 'verifiers v1 / prime-rl traces.jsonl',
    names: /(^|[\\/])traces\.jsonl(\.gz)?$/i,
    extensions: ['.jsonl', '.jsonl.gz'],
    docs: { what: 'verifiers v1 episodes, as `eval` and prime-rl write them', file: '`traces.jsonl`', read: 'line by line' },
  },
  'rllm-episode': {
    label: 'rLLM episode JSON',
    extensions: ['.json', '.jsonl'],
    docs: {
      what: 'rLLM Episode',
      file: '`episode_*.json` (one episode, or an array of them), or one per line',
      read: 'whole, or line by line',
    },
  },
  'swe-agent-traj': {
    label: 'SWE-agent .traj',
    names: /\.traj$/i,
    extensions: ['.traj'],
    docs: { what: 'SWE-agent trajectory', file: '`<instance_id>.traj`', read: 'whole' },
  },
  'mini-swe-agent': {
    label: 'mini-swe-agent .traj.json',
    names: /\.traj\.json$/i,
    extensions: ['.json'],
    docs: {
      what: 'mini-swe-agent trajectory, and its older bare message arrays',
      file: '`<instance_id>.traj.json`',
      read: 'whole',
    },
  },
  'harbor-atif': {
    label: 'Harbor / Terminal-Bench ATIF trajectory.json',
    names: /(^|[\\/])trajectory\.json$/i,
    extensions: ['.json'],
    docs: { what: 'Harbor / Terminal-Bench ATIF trajectory', file: '`trajectory.json`', read: 'whole' },
  },
  'atropos-groups': {
    label: 'Atropos ScoredDataGroup JSONL',
    extensions: ['.jsonl', '.jsonl.gz'],
    docs: { what: 'Atropos ScoredDataGroup JSONL (one group per line)', file: '`*.jsonl`', read: 'line by line' },
  },
  'verifiers-results': {
    label: 'verifiers results.jsonl',
    names: /(^|[\\/])results\.jsonl(\.gz)?$/i,
    extensions: ['.jsonl', '.jsonl.gz'],
    docs: {
      what: 'verifiers / prime-rl evaluation output',
      file: '`results.jsonl` (+ `metadata.json` beside it)',
      read: 'line by line',
    },
  },
  'verl-rollouts': {
    label: 'veRL rollout dump',
    extensions: ['.jsonl', '.jsonl.gz'],
    docs: { what: 'veRL rollout dump (`trainer.rollout_data_dir`)', file: '`<global_step>.jsonl`', read: 'line by line' },
  },
  'openai-chat': {
    label: 'OpenAI-style chat JSONL',
    extensions: ['.jsonl', '.jsonl.gz'],
    docs: { what: 'OpenAI-style chat transcripts', file: '`*.jsonl` with `messages`', read: 'line by line' },
  },
  'inspect-log': {
    label: 'Inspect AI .json log',
    extensions: ['.json'],
    docs: { what: 'Inspect AI log, JSON form', file: '`*.json` (`EvalLog`)', read: 'whole' },
  },
  'tau2-bench': {
    label: 'tau2-bench simulations',
    extensions: ['.json'],
    docs: { what: 'tau2-bench simulations (`Results`)', file: '`data/simulations/*.json`', read: 'whole' },
  },
  'tau-bench': {
    label: 'tau-bench results',
    extensions: ['.json'],
    docs: { what: 'tau-bench results (`EnvRunResult` array)', file: '`*.json`', read: 'whole' },
  },
  'nemo-gym': {
    label: 'NeMo Gym rollouts',
    extensions: ['.jsonl', '.jsonl.gz'],
    docs: { what: 'NeMo Gym rollouts (Responses API `response`)', file: '`*.jsonl`', read: 'line by line' },
  },
  'openhands-eval': {
    label: 'OpenHands evaluation output.jsonl',
    extensions: ['.jsonl', '.jsonl.gz'],
    docs: {
      what: 'OpenHands evaluation output (v0 events or V1 SDK events in `history`)',
      file: '`output.jsonl`',
      read: 'line by line',
    },
  },
  'openhands-events': {
    label: 'OpenHands event list',
    extensions: ['.json', '.jsonl'],
    wholeArray: 'events',
    docs: {
      what: 'OpenHands events: a v0 saved trajectory, or an SDK conversation one event per line',
      file: '`*.json` (an array of events), `*.jsonl`',
      read: 'whole; lines gathered (the events are one rollout)',
    },
  },
  'inspect-eval': {
    label: 'Inspect AI .eval log',
    // A zip: told by its bytes (sniffParser), or by its name when the bytes could not say.
    names: /\.eval$/i,
    extensions: ['.eval'],
    docs: {
      what: 'Inspect AI log, zip form',
      file: '`*.eval` (zip: `_journal/start.json`, `samples/*.json`, `header.json`)',
      read: 'streamed, one zip entry at a time',
    },
  },
  'otel-genai': {
    label: 'OpenTelemetry GenAI traces',
    extensions: ['.json', '.jsonl', '.jsonl.gz'],
    wholeArray: 'spans',
    docs: {
      what: 'OpenTelemetry GenAI / OpenInference traces: OTLP JSON exports, span lists, span per line (one rollout per trace)',
      file: '`*.json`, `*.jsonl`',
      read: 'whole; span-per-line files gathered to their end',
    },
  },
  structural: {
    label: 'read by shape (no adapter for this tool)',
    extensions: ['.jsonl', '.jsonl.gz', '.json'],
    docs: {
      what: 'any other agent trace: its conversation and facts found by shape (see "Read by shape")',
      file: 'any JSON / JSONL',
      read: 'either',
    },
  },
  mapped: {
    label: 'a field mapping (--map)',
    extensions: [],
    docs: { what: 'your own format, read by a field mapping (`--map MAP.json`)', file: 'any JSON / JSONL', read: 'either' },
  },
};

/** What a person reads when a file was converted. */
export const FORMAT_LABELS = Object.fromEntries(Object.entries(FORMAT_INFO).map(([id, f]) => [id, f.label])) as Record<FormatId, string>;

/** Every ending a trajectory file's name may have, longest first (".jsonl.gz" before ".jsonl"). */
export const TRAJECTORY_EXTENSIONS: readonly string[] = [...new Set(Object.values(FORMAT_INFO).flatMap((f) => f.extensions))].sort(
  (a, b) => b.length - a.length || (a < b ? -1 : 1),
);

/** Whether a file's name is one a reader takes: what `view` serves, `index` reads and the drop overlay keeps. */
export function isTrajectoryFileName(name: string): boolean {
  const lower = name.toLowerCase();
  return TRAJECTORY_EXTENSIONS.some((ext) => lower.endsWith(ext));
}
