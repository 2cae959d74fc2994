import { convertValue } from '../adapters/convertValue';
import { isRecord } from '../adapters/read';
import { plural } from '../counting';
import type { LineResult } from '../jsonl';
import { baseName, folderOf, inFolder, type OpenHandsConversation, type ReadFile } from './layouts';
import { readJson } from './readJson';

/*
 * An OpenHands SDK conversation as it persists itself (OpenHands/software-agent-sdk,
 * openhands-sdk/openhands/sdk/conversation/persistence_const.py and event_store.py): a folder holding
 * `base_state.json` (ConversationState._save_base_state: the state without its events) and `events/`, one
 * file per event named `event-{idx:05d}-{event_id}.json`.
 */

/** persistence_const.py `EVENT_NAME_RE`: 5 or more digits (padded to 5, never capped), then the event id. */
const EVENT_NAME = /^event-(\d{5,})-([0-9a-fA-F-]{8,})\.json$/;
const BASE_STATE = 'base_state.json';
const EVENTS_DIR = 'events';

/**
 * Every conversation in a listing: a folder with `base_state.json` or `events/event-*.json` (or, when the
 * listed directory is an `events/` folder itself, its event files). Its events are ordered as the SDK's
 * EventLog reads them (`_scan_and_build_index`): by index, from 0, up to the first missing index; a later
 * file of an index already seen replaces it, as there.
 */
export function findConversations(files: readonly string[]): OpenHandsConversation[] {
  const states = new Set<string>();
  const events = new Map<string, Map<number, string>>();
  for (const path of [...files].sort()) {
    const name = baseName(path);
    const folder = folderOf(path);
    if (name === BASE_STATE) {
      states.add(folder);
      continue;
    }
    const m = EVENT_NAME.exec(name);
    if (!m) continue;
    const root = baseName(folder) === EVENTS_DIR ? folderOf(folder) : folder === '' ? '' : null;
    if (root === null) continue;
    const byIndex = events.get(root) ?? new Map<number, string>();
    byIndex.set(Number(m[1]), path);
    events.set(root, byIndex);
  }
  const roots = [...new Set([...states, ...events.keys()])].sort();
  return roots.map((root) => {
    const byIndex = events.get(root) ?? new Map<number, string>();
    const ordered: string[] = [];
    for (let i = 0; byIndex.has(i); i++) ordered.push(byIndex.get(i) ?? '');
    const read = new Set(ordered);
    const pastGap = [...byIndex.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, path]) => path)
      .filter((path) => !read.has(path));
    return {
      layout: 'openhands-conversation',
      root,
      state: states.has(root) ? inFolder(root, BASE_STATE) : null,
      events: ordered,
      pastGap,
    };
  });
}

/** The file a conversation's rollout is named by: its `base_state.json`, else its first event. */
function conversationMain(unit: OpenHandsConversation): string {
  return unit.state ?? unit.events[0] ?? unit.pastGap[0] ?? inFolder(unit.root, BASE_STATE);
}

/**
 * One conversation -> one rollout, through the `openhands-events` converter: its events in order, then
 * `base_state.json` as the `ConversationStateUpdateEvent` the SDK sends for it (`key: "full_state"`, whose
 * value is the same `model_dump` of the state: event/conversation_state.py `from_conversation_state`), so
 * the state's `execution_status` and `agent.llm` are read as they are from a live conversation's events.
 * An event file that is not JSON, or not an object, is its own error; the others are still the conversation.
 */
export async function readConversation(
  unit: OpenHandsConversation,
  read: ReadFile,
  prefix: string,
  onLine: (r: LineResult) => void,
): Promise<void> {
  const events: unknown[] = [];
  for (const path of unit.events) {
    const got = await readJson(read, path, prefix + path);
    if ('error' in got) onLine({ kind: 'error', value: got.error });
    else if (!isRecord(got.value)) {
      onLine({
        kind: 'error',
        value: { file: prefix + path, line: 1, code: 'E_SCHEMA', message: 'expected an OpenHands event (a JSON object)' },
      });
    } else events.push(got.value);
  }
  const [first] = unit.pastGap;
  if (first !== undefined) {
    const missing = `event-${String(unit.events.length).padStart(5, '0')}`;
    const n = unit.pastGap.length;
    onLine({
      kind: 'error',
      value: {
        file: prefix + first,
        line: 1,
        code: 'E_PARSE',
        message: `${plural(n, 'event file')} past a gap (${missing} is missing): not read, as the SDK's event log does not read them`,
      },
    });
  }
  if (unit.state !== null) {
    const got = await readJson(read, unit.state, prefix + unit.state);
    if ('error' in got) onLine({ kind: 'error', value: got.error });
    else if (isRecord(got.value))
      events.push({ kind: 'ConversationStateUpdateEvent', source: 'environment', key: 'full_state', value: got.value });
    else {
      const message = 'expected the conversation state (a JSON object); the events are read without it';
      onLine({ kind: 'error', value: { file: prefix + unit.state, line: 1, code: 'E_SCHEMA', message } });
    }
  }
  for (const r of convertValue('openhands-events', { events }, { file: prefix + conversationMain(unit), line: 1 })) onLine(r);
}
