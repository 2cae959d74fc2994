import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIndexShard, type IndexRow } from '../../format';
import { buildIndexRow } from '../../testing/builders';
import { BlobColumn, mergePart, partBuffers, RunColumns, type ShardPart } from './runColumns';
import { appendShard, decodeShard } from './shardRows';

const row = (k: number, over: Partial<IndexRow> = {}): IndexRow =>
  buildIndexRow({
    file: `f${k % 2}.jsonl`,
    line: k + 1,
    offset: k * 5_000_000_000,
    length: 100 + k,
    task_id: `t${k % 3}`,
    rollout_id: `r-${k}-é`,
    attempt_id: k % 4 === 0 ? null : 'a-1',
    group_id: `g${k >> 1}`,
    policy_version: null,
    training_step: k === 3 ? null : k >> 2,
    termination: k % 5 === 0 ? 'infra_failure' : 'finished',
    in_signal: k % 5 !== 0,
    reward: k % 5 === 0 ? null : k / 10,
    steps: 70_000,
    generated_tokens: 10 * k,
    regressions: k % 2,
    warnings: 1,
    finding_codes: k % 3 === 0 ? ['W_HIT_MAX_TOKENS', 'W_MISSING_METADATA'] : k % 3 === 1 ? ['E_REWARD_MISSING'] : [],
    truncated: k % 3 === 0,
    mismatch_max_abs: k % 2 ? 0.5 : null,
    ...over,
  });

async function partsOf(bytes: ArrayBuffer, rows: number, name: string): Promise<ShardPart[]> {
  const parts: ShardPart[] = [];
  await decodeShard(bytes, rows, name, (p) => parts.push(p));
  return parts;
}

const view = (c: RunColumns) =>
  Array.from({ length: c.n }, (_, i) => ({
    file: c.file.at(i),
    task: c.task.at(i),
    id: c.rolloutId.at(i),
    attempt: c.attempt.at(i),
    group: c.group.at(i),
    term: c.termination.at(i),
    offset: c.offset[i],
    step: c.step[i],
    reward: c.reward[i],
    steps: c.steps[i],
    codes: (c.codeSets[c.codeSet[i] ?? 0] ?? []).map((k) => c.codeNames[k]).sort(),
    mm: c.mismatchMax[i],
  }));

describe('run columns', () => {
  // Issue 30: a bit mask held 32 codes (27 existed, scanners add more) and dropped the rest; steps were
  // clamped to 65,535. Each case fails on the columns before.
  it('keep every finding code of a run, however many, read here or merged from a worker', async () => {
    const codes = Array.from({ length: 40 }, (_, k) => `W_CODE_${k}`);
    const rows = codes.map((code, k) => row(k, { finding_codes: k % 2 === 0 ? [code] : [code, codes[0] ?? ''] }));
    const here = new RunColumns(4);
    await appendShard(here, encodeIndexShard(rows), rows.length, 'many');
    const merged = new RunColumns(4);
    for (const p of await partsOf(encodeIndexShard(rows, {}, 7), rows.length, 'many')) mergePart(merged, p);
    for (const c of [here, merged]) {
      expect(c.codeNames).toHaveLength(40);
      const v = view(c);
      expect(v[39]?.codes).toEqual(['W_CODE_0', 'W_CODE_39']);
      expect(v[38]?.codes).toEqual(['W_CODE_38']);
    }
  });

  it('read a rollout of a million steps as a million steps', async () => {
    const c = new RunColumns(1);
    await appendShard(c, encodeIndexShard([row(1, { steps: 1_000_000, warnings: 70_000 })]), 1, 'long');
    expect(c.steps[0]).toBe(1_000_000);
    expect(c.warnings[0]).toBe(70_000);
  });

  const a = Array.from({ length: 6 }, (_, k) => row(k));
  const b = Array.from({ length: 5 }, (_, k) => row(k + 6, { task_id: 'other', finding_codes: k === 0 ? ['W_LOGPROB_DRIFT'] : [] }));

  it('hold each shard’s rows: dictionaries, 64-bit offsets, nulls as NaN / -1, counts past 16 bits, codes as sets', async () => {
    const c = new RunColumns(2);
    await appendShard(c, encodeIndexShard(a), a.length, 'a');
    const v = view(c);
    expect(v[1]).toEqual({
      file: 'f1.jsonl',
      task: 't1',
      id: 'r-1-é',
      attempt: 'a-1',
      group: 'g0',
      term: 'finished',
      offset: 5e9,
      step: 0,
      reward: 0.1,
      steps: 70_000,
      codes: ['E_REWARD_MISSING'],
      mm: 0.5,
    });
    expect(v[0]).toMatchObject({
      attempt: null,
      reward: Number.NaN,
      term: 'infra_failure',
      codes: ['W_HIT_MAX_TOKENS', 'W_MISSING_METADATA'],
    });
    expect(v[3]?.step).toBe(-1);
    expect(Number.isNaN(v[2]?.mm)).toBe(true);
    await expect(appendShard(c, encodeIndexShard(a), 5, 'short')).rejects.toThrow(/short/);
  });

  it('merge a shard decoded elsewhere (a worker) into the same columns as reading it here', async () => {
    const here = new RunColumns(4);
    await appendShard(here, encodeIndexShard(a), a.length, 'a');
    await appendShard(here, encodeIndexShard(b), b.length, 'b');
    const merged = new RunColumns(4);
    // Decoded in the other order: dictionaries and finding-code bits differ per part, and are mapped.
    const pb = await partsOf(encodeIndexShard(b), b.length, 'b');
    const pa = await partsOf(encodeIndexShard(a), a.length, 'a');
    expect(pa.flatMap(partBuffers).every((x) => x instanceof ArrayBuffer)).toBe(true);
    for (const p of [...pa, ...pb]) mergePart(merged, p);
    expect(view(merged)).toEqual(view(here));
    expect(merged.n).toBe(11);
  });

  it('decode a shard one row group at a time, each a part of its own, in order, equal to the whole shard', async () => {
    const rows = [...a, ...b];
    const whole = new RunColumns(1);
    await appendShard(whole, encodeIndexShard(rows), rows.length, 'ab');
    const parts = await partsOf(encodeIndexShard(rows, {}, 4), rows.length, 'ab');
    expect(parts.map((p) => p.rows)).toEqual([4, 4, 3]);
    const merged = new RunColumns(1);
    for (const p of parts) mergePart(merged, p);
    expect(view(merged)).toEqual(view(whole));
    // The manifest's count is checked before any group is decoded: no part of a wrong shard is handed over.
    const seen: number[] = [];
    await expect(decodeShard(encodeIndexShard(rows, {}, 4), 12, 'ab', (p) => seen.push(p.rows))).rejects.toThrow(
      /ab: 11 rows, the manifest says 12/,
    );
    expect(seen).toEqual([]);
  });

  // Issue 25: codes and counts are held as narrow as their values, and widened, never cut, when a value
  // needs more bytes: read here, or merged from parts whose widths differ from the run's.
  it('widen a column when a value needs more bytes, and never cut one, read here or merged from a worker', async () => {
    const small = Array.from({ length: 300 }, (_, k) => row(k, { steps: 3, warnings: 0, group_id: 'g', generated_tokens: 7 }));
    const large = Array.from({ length: 300 }, (_, k) =>
      row(k + 300, { steps: k === 5 ? 70_000 : 300, warnings: k === 9 ? 5_000_000 : 1, group_id: `g${k}`, generated_tokens: 7 }),
    );
    const widths = (c: RunColumns) => [c.group.codes.BYTES_PER_ELEMENT, c.steps.BYTES_PER_ELEMENT, c.warnings.BYTES_PER_ELEMENT];
    const narrow = new RunColumns(4);
    await appendShard(narrow, encodeIndexShard(small), small.length, 'small');
    expect(widths(narrow)).toEqual([1, 1, 1]);
    expect(narrow.generated.BYTES_PER_ELEMENT).toBe(1);

    const here = new RunColumns(4);
    await appendShard(here, encodeIndexShard([...small, ...large]), 600, 'both');
    // Parts in both orders: a narrow run taking a wide part, and a wide run taking a narrow one.
    const smallParts = await partsOf(encodeIndexShard(small, {}, 100), 300, 'small');
    const largeParts = await partsOf(encodeIndexShard(large, {}, 100), 300, 'large');
    const merged = new RunColumns(4);
    for (const p of [...smallParts, ...largeParts]) mergePart(merged, p);
    const reversed = new RunColumns(4);
    for (const p of [...largeParts, ...smallParts]) mergePart(reversed, p);
    for (const c of [here, merged, reversed]) {
      // 301 groups: two bytes; a step count of 70,000: four; five million warnings: four.
      expect(widths(c)).toEqual([2, 4, 4]);
      const at = (k: number) => (c === reversed ? (k + 300) % 600 : k);
      expect(c.steps[at(305)]).toBe(70_000);
      expect(c.steps[at(306)]).toBe(300);
      expect(c.warnings[at(309)]).toBe(5_000_000);
      expect(c.steps[at(0)]).toBe(3);
      expect(c.group.at(at(599))).toBe('g299');
      expect(c.group.at(at(0))).toBe('g');
    }
    expect(view(merged)).toEqual(view(here));
  });

  it('hold a run of few values in a byte a row for each code and count', async () => {
    const rows = Array.from({ length: 2000 }, (_, k) =>
      row(k, { steps: k % 200, group_id: `g${k % 50}`, warnings: 1, regressions: 0, generated_tokens: 250 }),
    );
    const c = new RunColumns(2000);
    await appendShard(c, encodeIndexShard(rows), rows.length, 'few');
    for (const d of [c.file, c.task, c.attempt, c.group, c.policy, c.termination, c.format, c.failure, c.features])
      expect(d.codes.BYTES_PER_ELEMENT).toBe(1);
    for (const a of [c.steps, c.generated, c.regressions, c.errors, c.warnings, c.codeSet]) expect(a.BYTES_PER_ELEMENT).toBe(1);
    // 9 dictionaries and 6 codes or counts at a byte, against 4 before: 45 bytes a row saved.
    expect(c.byteLength / 2000).toBeLessThan(80);
  });
});

describe('BlobColumn', () => {
  it('reads back every value as UTF-8 holds it, short or long, ASCII or not', () => {
    const utf8 = (v: string) => new TextDecoder().decode(new TextEncoder().encode(v));
    const value = fc.oneof(
      fc.string({ maxLength: 70 }),
      fc.string({ unit: 'grapheme', maxLength: 70 }),
      fc.string({ unit: 'binary', maxLength: 70 }),
      // An ASCII id with one other character anywhere in it (the byte-by-byte read must give way).
      fc
        .tuple(fc.string({ maxLength: 40 }), fc.constantFrom('é', '\u0080', '\u00ff', '😀', '\ud800'), fc.string({ maxLength: 40 }))
        .map((p) => p.join('')),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 30 }), fc.boolean(), (values, asBytes) => {
        const c = new BlobColumn(values.length);
        for (const [i, v] of values.entries()) {
          if (asBytes) c.setBytes(i, new TextEncoder().encode(v));
          else c.set(i, v);
        }
        expect(values.map((_, i) => c.at(i))).toEqual(values.map(utf8));
      }),
      { numRuns: 500 },
    );
  });
});
