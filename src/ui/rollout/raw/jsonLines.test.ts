import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkedArray, runPass } from '../../../analysis';
import { jsonLineReader, jsonLines, jsonText, lineText, numbersText } from './jsonLines';
import { unknownFields, unknownFieldsPass } from './unknownFields';

describe('jsonLines', () => {
  it('pretty-prints like JSON.stringify(v, null, 2) but keeps number arrays on one line', () => {
    const value = { task_id: 't', segments: [{ input_ids: [1, 2, 3], old_logprobs: [-0.5, -1e-7] }], reward: null, ok: true };
    expect(jsonText(jsonLines(value))).toBe(
      [
        '{',
        '  "task_id": "t",',
        '  "segments": [',
        '    {',
        '      "input_ids": [1, 2, 3],',
        '      "old_logprobs": [-0.5, -1e-7]',
        '    }',
        '  ],',
        '  "reward": null,',
        '  "ok": true',
        '}',
      ].join('\n'),
    );
  });

  it('round-trips any record, unknown fields and odd keys included', () => {
    const value = {
      'we"ird\nkey': '<script>alert(1)</script>',
      extra: { nested: [[], {}, [1, null, 2], ['a', 1], [null]] },
      logprobs: [null, -0.25],
      n: 0,
    };
    const text = jsonText(jsonLines(value));
    expect(JSON.parse(text)).toEqual(value);
  });

  it('leaves out undefined fields as JSON does and reads typed arrays as numbers', () => {
    const lines = jsonLines({ a: undefined, ids: Int32Array.from([5, 6]) });
    expect(lines.map(lineText)).toEqual(['{', '  "ids": [5, 6]', '}']);
  });

  it('gives a scalar root one line', () => {
    expect(jsonLines('x')).toEqual([{ depth: 0, key: null, value: { kind: 'string', text: '"x"' }, comma: false }]);
  });
});

describe('numbersText', () => {
  it('writes a slice of the numbers', () => {
    expect(numbersText([1, 2, 3, null], 1, 4)).toBe('2, 3, null');
    expect(numbersText([])).toBe('');
  });
});

describe('jsonLineReader', () => {
  it('makes the same lines as jsonLines, however far each read asks for', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.array(fc.nat(40), { maxLength: 6 }), (value, reads) => {
        const reader = jsonLineReader(value);
        let upTo = 0;
        for (const n of reads) {
          upTo += n;
          expect(reader.read(upTo).length).toBeGreaterThanOrEqual(Math.min(upTo, jsonLines(value).length));
        }
        expect(reader.read(Number.POSITIVE_INFINITY)).toEqual(jsonLines(value));
        expect(reader.done).toBe(true);
      }),
      { seed: 19, numRuns: 200 },
    );
  });

  it('reads a million-step record only as far as its first lines need', () => {
    const parsed: number[] = [];
    const steps = chunkedArray(1_000_000, 2048, (c) => {
      parsed.push(c);
      return Array.from({ length: 2048 }, (_, i) => ({ tool_call_id: `s-${c * 2048 + i}`, tool: 'run_tests', x_cost: 1 }));
    });
    const record = { task_id: 't', rollout_id: 'huge', segments: [], steps, termination: 'finished', reward: 1 };
    const reader = jsonLineReader(record);
    expect(reader.read(1500).length).toBe(1500);
    expect(reader.done).toBe(false);
    expect(parsed).toEqual([0]);
    // Fields outside format v1 are found a chunk of steps at a time, with progress between.
    const pass = unknownFieldsPass(record as never);
    const progress: number[] = [];
    for (let r = pass.next(); !r.done; r = pass.next()) progress.push(r.value);
    expect(progress.length).toBe(Math.ceil(1_000_000 / 2048));
    expect(runPass(unknownFieldsPass(record as never))).toEqual(['steps[*].x_cost']);
    expect(unknownFields(record as never)).toEqual(['steps[*].x_cost']);
  });
});
