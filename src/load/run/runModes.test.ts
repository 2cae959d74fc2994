import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type FailureMode, FailureModes, summarizeRollout } from '../../analysis';
import { parseLine } from '../../format';
import { readRun } from './runIndex';
import { runFailureModes } from './runModes';

const INDEX = new URL('../../../public/demo/run-index/', import.meta.url);
const RUN = new URL('../../../public/demo/run/', import.meta.url);

/** The committed demo run's index, served from disk. */
const fetchFromDisk = (async (input: RequestInfo | URL) => {
  const url = new URL(String(input));
  const bytes = readFileSync(new URL(`.${url.pathname.replace(/^\/index/, '')}`, INDEX));
  return new Response(bytes);
}) as typeof globalThis.fetch;

function modesFromRecords(): FailureModes {
  const modes = new FailureModes();
  for (const name of readdirSync(RUN)
    .filter((n) => n.endsWith('.jsonl.gz'))
    .sort()) {
    gunzipSync(readFileSync(new URL(name, RUN)))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .forEach((text, i) => {
        const r = parseLine(text, i + 1, name);
        if (r?.kind === 'rollout') modes.add(r.value.record, summarizeRollout(r.value));
      });
  }
  return modes;
}

const brief = (m: FailureMode) => [
  m.name,
  m.count,
  m.steps.map((s) => s.count).join(','),
  m.tasks.map((t) => `${t.task_id}:${t.count}`).join(' '),
];

describe('runFailureModes', () => {
  it('gives the demo run’s modes from its index columns as trajscope modes gives them from the records', async () => {
    const snap = await readRun('http://host/index/manifest.json', null, { fetch: fetchFromDisk });
    const fromColumns = await runFailureModes(snap, null);
    const fromRecords = modesFromRecords().result();
    expect(fromColumns.rollouts).toBe(fromRecords.rollouts);
    expect(fromColumns.failures).toBe(fromRecords.failures);
    expect(fromColumns.modes.map(brief)).toEqual(fromRecords.modes.map(brief));
  });

  it('counts only the chosen training steps, and stops when asked', async () => {
    const snap = await readRun('http://host/index/manifest.json', null, { fetch: fetchFromDisk });
    const all = await runFailureModes(snap, null);
    const early = await runFailureModes(snap, { from: 0, to: 5 });
    const stepsOf = (r: typeof all) => new Set(r.modes.flatMap((m) => m.steps.map((s) => s.step)));
    expect([...stepsOf(early)].every((s) => s !== null && s <= 5)).toBe(true);
    expect(early.failures).toBeLessThan(all.failures);
    const stop = new AbortController();
    stop.abort();
    await expect(runFailureModes(snap, null, stop.signal)).rejects.toThrow();
  });
});
