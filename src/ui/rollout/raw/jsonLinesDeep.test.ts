import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonLines } from './jsonLines';

const PROPERTY = { seed: 18, numRuns: 40 };

describe('jsonLines on any value (issue 18: the raw view walks without recursion)', () => {
  it('renders JSON that reads back as the value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
        const text = jsonLines(v)
          .map((l) => {
            const body = l.value.kind === 'numbers' ? `[${l.value.values.map((x) => JSON.stringify(x)).join(', ')}]` : l.value.text;
            return `${'  '.repeat(l.depth)}${l.key === null ? '' : `${l.key}: `}${body}${l.comma ? ',' : ''}`;
          })
          .join('\n');
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      PROPERTY,
    );
  });

  it('walks a value thousands deep: an open and a close line per level, and the leaf', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 8000 }), (kinds) => {
        let text = '"x"';
        for (const arr of kinds) text = arr ? `[${text}]` : `{"k":${text}}`;
        expect(jsonLines(JSON.parse(text))).toHaveLength(2 * kinds.length + 1);
      }),
      { seed: 18, numRuns: 20 },
    );
  });
});
