import { concat, createLineParser, type FieldMapping, type LineResult } from '../../format';
import type { LoadSource } from '../../load';

/** How much of a file the mapping preview reads: enough for its first records, little enough to be instant. */
export const PREVIEW_BYTES = 512 * 1024;
/** Records the preview shows. */
const PREVIEW_RECORDS = 5;

/** The start of a source's bytes, decompressed when it is gzip (told by its magic bytes, as the load does). */
export async function readHead(source: LoadSource, signal?: AbortSignal): Promise<Uint8Array> {
  const blob =
    source.kind === 'file'
      ? source.file.slice(0, PREVIEW_BYTES)
      : await (await fetch(source.url, { headers: { Range: `bytes=0-${PREVIEW_BYTES - 1}` }, ...(signal ? { signal } : {}) })).blob();
  const bytes = new Uint8Array(await blob.slice(0, PREVIEW_BYTES).arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  // A cut gzip stream ends in an error: keep what decompressed before it.
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < PREVIEW_BYTES) {
      const next = await reader.read();
      if (next.done) break;
      parts.push(next.value);
      size += next.value.length;
    }
  } catch {
    // the cut end of the member
  }
  return concat(parts);
}

/**
 * The first records a mapping makes of a file's head, as the load would make them (same parser). A head
 * cut inside a line drops that line; a document longer than the head cannot be previewed whole.
 */
export function previewMapping(name: string, head: Uint8Array, mapping: FieldMapping, complete: boolean): LineResult[] {
  const parser = createLineParser(name, { mapping });
  let end = head.length;
  if (!complete) {
    const lastNewline = head.lastIndexOf(0x0a);
    end = lastNewline === -1 ? head.length : lastNewline + 1;
  }
  const results = [...parser.push(head.subarray(0, end)), ...parser.end()];
  return results.slice(0, PREVIEW_RECORDS);
}

/** A starting mapping for a file: the first record's fields, placed where their names suggest. */
export function starterMapping(head: Uint8Array): string {
  const text = new TextDecoder().decode(head.subarray(0, Math.min(head.length, 64 * 1024)));
  const firstLine = text.split('\n').find((l) => l.trim().startsWith('{')) ?? '';
  let keys: string[] = [];
  try {
    const value: unknown = JSON.parse(firstLine);
    if (value && typeof value === 'object' && !Array.isArray(value)) keys = Object.keys(value);
  } catch {
    // not one JSON object per line: the person fills the paths in
  }
  const pick = (...names: string[]) => keys.find((k) => names.includes(k.toLowerCase()));
  const draft: Record<string, unknown> = {};
  const set = (field: string, key: string | undefined) => {
    if (key !== undefined) draft[field] = key;
  };
  set('rollout_id', pick('rollout_id', 'id', 'uid', 'run_id', 'episode', 'episode_id', 'trajectory_id'));
  set('task_id', pick('task_id', 'task', 'instance_id', 'problem_id', 'prompt_id', 'example_id'));
  set('reward', pick('reward', 'score', 'return', 'success'));
  const status = pick('status', 'outcome', 'termination', 'finish_reason', 'exit_status', 'result');
  if (status !== undefined) Object.assign(draft, { status, status_map: { CHANGE_ME: 'finished' } });
  const messages = pick('messages', 'conversation', 'chat', 'history', 'dialog');
  const turns = pick('turns', 'steps', 'trajectory', 'actions');
  if (messages !== undefined) draft.messages = { path: messages };
  else if (turns !== undefined) draft.turns = { path: turns, output: 'CHANGE_ME', tool_calls: 'CHANGE_ME', observation: 'CHANGE_ME' };
  return JSON.stringify(draft, null, 2);
}
