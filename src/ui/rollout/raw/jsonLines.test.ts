import { describe, expect, it } from 'vitest';
import { jsonLines, jsonText, lineText, numbersText } from './jsonLines';

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
