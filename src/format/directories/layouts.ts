import type { Json } from '../adapters/read';
import type { FormatId } from '../adapters/types';

/*
 * Tools that write one trace as a directory of files, not one file (docs/formats.md, "Directories as
 * traces"). A layout is found in a directory's listing (`detect.ts`) and its traces are read through the
 * converters the formats already have (`read.ts`). Nothing here touches a file system: the caller lists
 * the directory and reads its files (src/cli/traceDirectory.ts does both in node).
 */

export type DirectoryLayout = 'openhands-conversation' | 'harbor-job' | 'tau2-results';

export interface LayoutInfo {
  /** What a person reads: "an OpenHands SDK conversation". */
  label: string;
  /** The converter each trace of it goes through. */
  format: FormatId;
  /** Its files, for messages that say what was looked for. */
  files: string;
}

export const LAYOUT_INFO: Record<DirectoryLayout, LayoutInfo> = {
  'openhands-conversation': {
    label: 'an OpenHands SDK conversation',
    format: 'openhands-events',
    files: 'base_state.json + events/event-NNNNN-<id>.json',
  },
  'harbor-job': {
    label: 'a Harbor job',
    format: 'harbor-atif',
    files: '<trial>/agent/trajectory.json + <trial>/result.json',
  },
  'tau2-results': {
    label: 'a tau2-bench results directory',
    format: 'tau2-bench',
    files: 'results.json + simulations/<id>.json',
  },
};

/** One file of the directory as read: its bytes, or why it was not read (too large, a link, gone). */
export type FileBytes = { bytes: Uint8Array } | { error: string };

/** Reads one file of the listed directory by its directory-relative path ('/'-separated). */
export type ReadFile = (path: string) => Promise<FileBytes>;

/** An OpenHands SDK conversation folder (openhands-sdk conversation/state.py, event_store.py). */
export interface OpenHandsConversation {
  layout: 'openhands-conversation';
  /** The folder ('' for the listed directory itself). */
  root: string;
  /** `base_state.json`: the conversation state, as its `full_state` update carries it. */
  state: string | null;
  /** The event files in the order the SDK's EventLog reads them: index 0, 1, 2, … up to the first gap. */
  events: string[];
  /** Event files past a gap in the numbering: the EventLog does not read them, nor does Trajscope. */
  pastGap: string[];
}

/** A Harbor trial folder (harbor models/trial/paths.py `TrialPaths`). */
export interface HarborTrial {
  layout: 'harbor-job';
  root: string;
  /** `agent/trajectory.json`, the agent's ATIF log (null: the agent wrote none). */
  trajectory: string | null;
  /** `result.json`, the `TrialResult` holding the verifier's rewards (null: the trial has not ended). */
  result: string | null;
}

/** A tau2-bench run saved in its directory form (tau2 data_model/simulation.py `Results.save(format="dir")`). */
export interface Tau2Run {
  layout: 'tau2-results';
  root: string;
  /** `results.json`: the run's metadata without its simulations. */
  results: string;
  /** The parsed `results.json` (read to tell the layout). */
  meta: Json;
  /** `simulations/*.json`, one `SimulationRun` each, sorted as tau2's loader sorts them. */
  simulations: string[];
}

export type TraceUnit = OpenHandsConversation | HarborTrial | Tau2Run;

/** What a directory holds that is read as traces. */
export interface TraceDirectory {
  /** The layouts found, in LAYOUT_INFO's order. */
  layouts: DirectoryLayout[];
  /** Every conversation, trial and run, sorted by folder. */
  units: TraceUnit[];
}

/** The directory-relative path of `name` in folder `root` ('' is the listed directory). */
export function inFolder(root: string, name: string): string {
  return root === '' ? name : `${root}/${name}`;
}

/** The folder of a directory-relative path ('' for a file of the listed directory). */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
