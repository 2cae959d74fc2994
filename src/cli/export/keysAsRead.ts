import { once } from 'node:events';
import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { reviewKey } from '../../format';
import { claimNew } from './output';

/**
 * Rollout keys formed while the export reads, in one pass (`rolloutKeys` over the same files gives the
 * same keys): a rollout's key is its ids' key, and every rollout that shares it with another gets
 * `@file:line`. A later copy is known to be one when it is read; the first one is not, so it is written with
 * its ids' key and put right afterwards (`fixUp`), in the output file, only when a copy came (rare: an
 * E_DUPLICATE_ROLLOUT). Reading every input a second time only for the keys cost as much as the export's
 * own read (npm run bench: export v1 1.67 x convert). Held: one entry per distinct key, as the key pass held.
 */
export class KeysAsRead {
  private readonly first = new Map<string, { file: string; line: number; shared: boolean }>();

  keyOf(file: string, rollout: { rollout_id: string; attempt_id?: string | null | undefined }, line: number): string {
    const base = reviewKey({ rollout_id: rollout.rollout_id, attempt_id: rollout.attempt_id ?? null });
    const seen = this.first.get(base);
    if (seen === undefined) {
      this.first.set(base, { file, line, shared: false });
      return base;
    }
    seen.shared = true;
    return `${base}@${file}:${line}`;
  }

  /** The keys written before a copy of them came, and what they are once it has: `base` -> `base@file:line`. */
  private fixes(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [base, { file, line, shared }] of this.first) if (shared) out.set(base, `${base}@${file}:${line}`);
    return out;
  }

  /**
   * Rewrites `path` (the pending output, JSON Lines) where a `provenance` (or a pair's `provenance.chosen` /
   * `rejected`) holds a key that turned out shared, for its first rollout (file and line match). Lines that
   * name no such key are copied as they are; the others are parsed and written again as the sink writes them.
   */
  async fixUp(path: string): Promise<void> {
    const fixes = this.fixes();
    if (fixes.size === 0) return;
    const fixed = `${path}.keys`;
    claimNew(fixed);
    try {
      const out = createWriteStream(fixed);
      const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
      for await (const text of lines) {
        const line = mentionsAny(text, fixes) ? JSON.stringify(fixLine(JSON.parse(text), fixes, this.first)) : text;
        if (!out.write(`${line}\n`)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      renameSync(fixed, path);
    } catch (e) {
      rmSync(fixed, { force: true });
      throw e;
    }
  }
}

/** Whether the line names one of the keys as a `rollout_key` (a cheap look before parsing it). */
function mentionsAny(text: string, fixes: ReadonlyMap<string, string>): boolean {
  if (!text.includes('"rollout_key":')) return false;
  for (const m of text.matchAll(/"rollout_key":("(?:[^"\\]|\\.)*")/g)) if (fixes.has(JSON.parse(m[1] ?? '""') as string)) return true;
  return false;
}

type At = { file?: unknown; line?: unknown; rollout_key?: unknown };

function fixLine(
  value: { provenance?: At & { chosen?: At; rejected?: At } },
  fixes: ReadonlyMap<string, string>,
  first: ReadonlyMap<string, { file: string; line: number }>,
) {
  const fix = (at: At | undefined) => {
    if (!at || typeof at.rollout_key !== 'string') return;
    const to = fixes.get(at.rollout_key);
    const origin = first.get(at.rollout_key);
    if (to !== undefined && origin && at.file === origin.file && at.line === origin.line) at.rollout_key = to;
  };
  fix(value.provenance);
  fix(value.provenance?.chosen);
  fix(value.provenance?.rejected);
  return value;
}
