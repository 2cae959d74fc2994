import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { LineResult } from '../jsonl';
import { inspectTermination, inspectValueToFloat } from './inspectLog';
import { createLineParser } from './lineParser';

const EVAL = resolve(
  __dirname,
  '../../../../shared/real-data/inspect-ai-eval/2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval',
);
const HAS_EVAL = existsSync(EVAL);
if (!HAS_EVAL) console.info('../shared/real-data is absent: .eval zip tests on the published file skipped');

function readAll(name: string, bytes: Uint8Array, from?: 'inspect-eval'): LineResult[] {
  const parser = createLineParser(name, from ? { from } : {});
  return [...parser.push(bytes), ...parser.end()];
}

describe('value_to_float, as Inspect converts a score value', () => {
  it.each([
    ['C', 1],
    ['I', 0],
    ['P', 0.5],
    ['N', 0],
    ['yes', 1],
    ['No', 0],
    ['TRUE', 1],
    ['0.25', 0.25],
    [true, 1],
    [false, 0],
    [3, 3],
  ] as const)('%s → %s', (value, expected) => {
    expect(inspectValueToFloat(value)).toBe(expected);
  });

  it('gives null where Inspect would warn and use 0', () => {
    for (const v of [{ a: 1 }, [1], 'maybe', '', null]) expect(inspectValueToFloat(v)).toBeNull();
  });
});

describe('Inspect sample termination', () => {
  it('maps error and limit by the documented table', () => {
    expect(inspectTermination({ error: { message: 'boom', traceback: '' } })).toBe('infra_failure');
    expect(inspectTermination({ limit: { type: 'token', limit: 1000 } })).toBe('budget_exhausted');
    expect(inspectTermination({ limit: { type: 'operator', limit: 1 } })).toBe('cancelled');
    expect(inspectTermination({ limit: { type: 'custom', limit: 1 } })).toBe('limit:custom');
    expect(inspectTermination({ error: null, limit: null })).toBe('finished');
  });
});

describe('the .eval zip reader', () => {
  it('a corrupt archive is one E_PARSE, and nothing throws', () => {
    const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0xff, 0xff, 0xff, 0xff, 1, 2, 3]);
    const results = readAll('x.eval', bytes);
    expect(results.every((r) => r.kind === 'error')).toBe(true);
    expect(results.length).toBeGreaterThan(0);
  });

  it('a zip that is not an Inspect log says so in one line', () => {
    const results = readAll('other.zip', zipSync({ 'readme.txt': strToU8('hello') }));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ kind: 'error', value: { code: 'E_PARSE', line: 1 } });
    expect(results[0]?.kind === 'error' && results[0].value.message).toMatch(/not an Inspect \.eval log/);
  });

  it('--from inspect-eval on text is a clear error, not a crash', () => {
    const results = readAll('rollouts.jsonl', strToU8('{"a": 1}\n'), 'inspect-eval');
    expect(results).toHaveLength(1);
    expect(results[0]?.kind).toBe('error');
  });

  it.skipIf(!HAS_EVAL)('a broken sample entry is its own E_PARSE naming the entry; the other samples load', () => {
    const entries = unzipSync(readFileSync(EVAL));
    entries['samples/9_epoch_1.json'] = strToU8('{"id": 9, "epoch": 1, "messages": [');
    // The archive order of the published file: start.json first, header.json last.
    const results = readAll('edited.eval', zipSync(entries));
    const errors = results.flatMap((r) => (r.kind === 'error' ? [r.value] : []));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/^samples\/9_epoch_1\.json: not valid JSON/);
    expect(results.filter((r) => r.kind === 'rollout')).toHaveLength(9);
  });

  it.skipIf(!HAS_EVAL)('a sample that is not an EvalSample is E_SCHEMA on its entry', () => {
    const entries = unzipSync(readFileSync(EVAL));
    entries['samples/4_epoch_1.json'] = strToU8(JSON.stringify({ id: 4, epoch: 1, messages: 'none' }));
    const errors = readAll('edited.eval', zipSync(entries)).flatMap((r) => (r.kind === 'error' ? [r.value] : []));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'E_SCHEMA' });
    expect(errors[0]?.message).toMatch(/samples\/4_epoch_1\.json: messages: expected an array/);
  });

  it.skipIf(!HAS_EVAL)('epochs of one sample share a task id (one group) and keep their own rollout ids', () => {
    const entries = unzipSync(readFileSync(EVAL));
    const five = JSON.parse(new TextDecoder().decode(entries['samples/5_epoch_1.json']));
    entries['samples/5_epoch_2.json'] = strToU8(JSON.stringify({ ...five, epoch: 2 }));
    const records = readAll('epochs.eval', zipSync(entries)).flatMap((r) => (r.kind === 'rollout' ? [r.value.record] : []));
    const epochs = records.filter((r) => r.task_id === 'popularity/5');
    expect(epochs.map((r) => r.rollout_id)).toEqual(['epochs.eval:samples/5_epoch_1.json', 'epochs.eval:samples/5_epoch_2.json']);
  });

  it.skipIf(!HAS_EVAL)('a log with its spec but no samples says so, instead of reading as an empty run', () => {
    const entries = unzipSync(readFileSync(EVAL));
    for (const name of Object.keys(entries)) if (name.startsWith('samples/')) delete entries[name];
    const results = readAll('header-only.eval', zipSync(entries));
    expect(results).toHaveLength(1);
    expect(results[0]?.kind === 'error' && results[0].value.message).toMatch(/without samples/);
  });
});
