import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment } from '../testing/builders';
import { FIXTURES, parseText } from './adapters/fixtures';
import { JsonTooDeepError, parseJson, parseJsonText, quoteNonFinite } from './json';
import { type LineResult, parseLine } from './jsonl';

/*
 * Python's json.dumps writes float nan and ±inf as the bare words NaN, Infinity and -Infinity (its default,
 * allow_nan=True). They are not JSON, but a line holding them is Python's JSON, not garbage (issue 24): another
 * tool's line is read, each word as that string, and a field that must be a number fails naming the field; a
 * v1 line keeps the contract (trajectory-format.md §1: they "make the line a parse error"), an E_PARSE that
 * says so, in a file still read as v1, never "not JSON".
 */

/** A value written as Python's json.dumps writes it: non-finite numbers as bare words. */
function pythonDumps(value: unknown): string {
  return JSON.stringify(value, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? `@@${v}@@` : v)).replace(
    /"@@(NaN|Infinity|-Infinity)@@"/g,
    '$1',
  );
}

/** The value as Trajscope reads it back: each non-finite number as its word. */
function asRead(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)));
}

function errorOf(r: LineResult | null): { code: string; message: string } {
  if (r?.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(r)}`);
  return r.value;
}

describe('quoteNonFinite', () => {
  it('quotes the bare words, never a word inside a string (escaped quotes and backslashes included)', () => {
    expect(quoteNonFinite('{"a": NaN, "b": [Infinity, -Infinity]}')).toBe('{"a": "NaN", "b": ["Infinity", "-Infinity"]}');
    expect(quoteNonFinite('{"NaN": "x \\" NaN", "c": "\\\\", "d": NaN}')).toBe('{"NaN": "x \\" NaN", "c": "\\\\", "d": "NaN"}');
    expect(quoteNonFinite('{"a": "NaN", "b": "-Infinity"}')).toBeNull();
    expect(quoteNonFinite('{"a": 1}')).toBeNull();
  });
});

describe('parseJsonText', () => {
  it('reads NaN, Infinity and -Infinity as those strings, wherever they stand', () => {
    expect(parseJsonText('{"reward": NaN, "logprobs": [-0.5, -Infinity], "x": {"y": Infinity}}')).toEqual({
      reward: 'NaN',
      logprobs: [-0.5, '-Infinity'],
      x: { y: 'Infinity' },
    });
    expect(parseJsonText('NaN')).toBe('NaN');
  });

  it('reads any value Python writes as the value with its non-finite numbers as words, and JSON exactly as JSON.parse', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(parseJsonText(JSON.stringify(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { seed: 24, numRuns: 200 },
    );
    const withDoubles = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.double(),
        fc.string(),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(withDoubles, (v) => {
        expect(parseJsonText(pythonDumps(v))).toEqual(asRead(v));
      }),
      { seed: 24, numRuns: 300 },
    );
  });

  it('still refuses what is not JSON besides, naming what else is wrong, and still bounds depth', () => {
    expect(() => parseJsonText('{"a": NaN,}')).toThrow(SyntaxError);
    expect(() => parseJsonText('{"a": Nan}')).toThrow(SyntaxError);
    expect(() => parseJsonText('{"a": NaN, "b": }')).toThrow(/'}'/);
    expect(() => parseJsonText(`${'['.repeat(300)}NaN${']'.repeat(300)}`)).toThrow(JsonTooDeepError);
  });

  it('leaves parseJson (tool-call arguments, reviews) as strict as JSON.parse', () => {
    expect(() => parseJson('{"a": NaN}')).toThrow(SyntaxError);
  });
});

const NON_FINITE_V1 = 'NaN / Infinity are not JSON: v1 numbers are finite (trajectory-format.md §1)';

describe('parseLine: a v1 line with Python non-finite numbers', () => {
  it('is the parse error the contract names, said as such, wherever they stand', () => {
    const line = JSON.stringify(buildRollout({ extra: { kl: 0 } })).replace('"kl":0', '"kl":NaN,"ratio":Infinity');
    expect(errorOf(parseLine(line, 3, 'a.jsonl'))).toMatchObject({ code: 'E_PARSE', message: NON_FINITE_V1 });
    const reward = errorOf(parseLine(JSON.stringify(buildRollout()).replace('"reward":1', '"reward":NaN'), 1, 'a'));
    expect(reward).toMatchObject({ code: 'E_PARSE', message: NON_FINITE_V1 });
    const line2 = JSON.stringify(buildRollout({ segments: [buildSegment({ old_logprobs: [-0.5, -99] })] })).replace('-99', '-Infinity');
    expect(errorOf(parseLine(line2, 1, 'a'))).toMatchObject({ code: 'E_PARSE', message: NON_FINITE_V1 });
  });

  it('says "not valid JSON" only of a line that is not JSON even so', () => {
    expect(errorOf(parseLine('{"reward": NaN', 1, 'a'))).toMatchObject({
      code: 'E_PARSE',
      message: expect.stringMatching(/^not valid JSON/),
    });
  });
});

describe('a file whose lines hold Python non-finite numbers is read, never "not JSON"', () => {
  const v1 = (i: number) => JSON.stringify(buildRollout({ rollout_id: `r-${i}`, extra: { loss: 0 } })).replace('"loss":0', '"loss":NaN');

  it.each(['run.jsonl', 'run.json'])('v1 lines in %s: each its own parse error, the file still v1, whatever the chunk size', (name) => {
    const text = `${[1, 2, 3].map(v1).join('\n')}\n`;
    for (const sizes of [[], [7, 13]]) {
      const { results, format, unsupported } = parseText(text, name, {}, sizes);
      expect(unsupported).toBeNull();
      expect(format).toBe('v1');
      expect(results.map((r) => [r.kind, r.value.line, r.kind === 'error' && r.value.message])).toEqual([
        ['error', 1, NON_FINITE_V1],
        ['error', 2, NON_FINITE_V1],
        ['error', 3, NON_FINITE_V1],
      ]);
    }
  });

  it("a converted format: a NaN metric is kept, a NaN reward is that row's E_SCHEMA naming reward", () => {
    const [first = '', second = ''] = FIXTURES.verifiersResults.text.split('\n');
    const row = JSON.parse(first);
    const metric = pythonDumps({ ...row, nan_metric: Number.NaN });
    const nanReward = pythonDumps({ ...JSON.parse(second), reward: Number.NaN });
    const { results, format, unsupported } = parseText(`${metric}\n${nanReward}\n`, FIXTURES.verifiersResults.name);
    expect(unsupported).toBeNull();
    expect(format).toBe('verifiers-results');
    const [ok, bad] = results;
    expect(ok?.kind === 'rollout' && JSON.stringify(ok.value.record)).toContain('"nan_metric":"NaN"');
    expect(bad?.kind === 'error' && bad.value).toMatchObject({ line: 2, code: 'E_SCHEMA', message: expect.stringContaining('reward') });
  });
});
