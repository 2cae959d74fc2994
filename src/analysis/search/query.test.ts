import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HAS_WORDS, type HasWord, parseQuery, printQuery, QueryError, TEXT_FIELDS, type Term, termRegex } from './query';

const terms = (q: string) => parseQuery(q).clauses.map((c) => (c.negated ? { not: c.term } : c.term));

describe('parseQuery', () => {
  it('reads words, phrases and regexes, ANDed by juxtaposition', () => {
    expect(terms('Traceback "file not found" /err(or)?\\d+/i')).toEqual([
      { kind: 'text', text: 'Traceback' },
      { kind: 'text', text: 'file not found' },
      { kind: 'regex', source: 'err(or)?\\d+', flags: 'i' },
    ]);
  });

  it('reads every structured term of the issue', () => {
    expect(
      terms('tool:edit status:timeout term:infra_failure code:E_TRAINING_MASK reward:0 reward>0.5 step>=100 group:g-1 has:regression'),
    ).toEqual([
      { kind: 'name', field: 'tool', value: 'edit' },
      { kind: 'name', field: 'status', value: 'timeout' },
      { kind: 'name', field: 'term', value: 'infra_failure' },
      { kind: 'name', field: 'code', value: 'E_TRAINING_MASK' },
      { kind: 'compare', field: 'reward', op: '=', value: 0 },
      { kind: 'compare', field: 'reward', op: '>', value: 0.5 },
      { kind: 'compare', field: 'step', op: '>=', value: 100 },
      { kind: 'name', field: 'group', value: 'g-1' },
      { kind: 'has', what: 'regression' },
    ]);
  });

  it('negates with a leading minus, and a lone minus is text', () => {
    expect(terms('-tool:finish - -"a b"')).toEqual([
      { not: { kind: 'name', field: 'tool', value: 'finish' } },
      { kind: 'text', text: '-' },
      { not: { kind: 'text', text: 'a b' } },
    ]);
  });

  it('records where each clause is', () => {
    const q = parseQuery('  foo  -reward<1');
    expect(q.clauses.map((c) => [c.start, c.end])).toEqual([
      [2, 5],
      [7, 16],
    ]);
  });

  it('takes quoted values and escapes in phrases', () => {
    expect(terms('task:"a b" "say \\"hi\\""')).toEqual([
      { kind: 'name', field: 'task', value: 'a b' },
      { kind: 'text', text: 'say "hi"' },
    ]);
  });

  it('keeps a slash inside a regex when escaped', () => {
    expect(terms('/a\\/b/')).toEqual([{ kind: 'regex', source: 'a\\/b', flags: '' }]);
  });

  it.each([
    ['reward>abc', 'not a number', 0],
    ['ok tol:edit', '"tol:" at 4 is not a term', 3],
    ['has:nothing', 'has: takes', 0],
    ['x "open', 'no closing quote', 2],
    ['/abc', 'no closing /', 0],
    ['/(/', 'not valid', 0],
    ['/a/g', 'flags "g"', 0],
    ['tool>3', 'only reward and step compare', 0],
    ['reward:', 'has no value', 0],
    ['""', 'is empty', 0],
  ])('%s is an error naming the term and position', (q, message, position) => {
    let error: unknown;
    try {
      parseQuery(q);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(QueryError);
    expect((error as QueryError).message).toContain(message);
    expect((error as QueryError).position).toBe(position);
  });

  it('an empty or blank query has no clauses', () => {
    expect(parseQuery('   ').clauses).toEqual([]);
  });
});

describe('case rules', () => {
  it('plain text ignores case unless it has an uppercase letter', () => {
    expect(termRegex({ kind: 'text', text: 'traceback' }).test('TRACEBACK')).toBe(true);
    expect(termRegex({ kind: 'text', text: 'Traceback' }).test('traceback')).toBe(false);
  });
  it('a regex is as written', () => {
    expect(termRegex({ kind: 'regex', source: 'abc', flags: '' }).test('ABC')).toBe(false);
    expect(termRegex({ kind: 'regex', source: 'abc', flags: 'i' }).test('ABC')).toBe(true);
  });
  it('text with regex characters is literal', () => {
    expect(termRegex({ kind: 'text', text: 'a.b(' }).test('axb(')).toBe(false);
    expect(termRegex({ kind: 'text', text: 'a.b(' }).test('a.b(')).toBe(true);
  });
});

const word = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom('a', 'B', ' ', '"', '\\', ':', '-', '/', '>', '=', 'é', '*') });
const termArb: fc.Arbitrary<Term> = fc.oneof(
  word.map((text) => ({ kind: 'text' as const, text })),
  fc
    .tuple(fc.stringMatching(/^[a-z][a-z.|]{0,5}$/), fc.subarray(['i', 'm', 's', 'u']))
    .map(([source, flags]) => ({ kind: 'regex' as const, source, flags: flags.sort().join('') })),
  fc.tuple(fc.constantFrom(...TEXT_FIELDS), word).map(([field, value]) => ({ kind: 'name' as const, field, value })),
  fc
    .tuple(
      fc.constantFrom('reward' as const, 'step' as const),
      fc.constantFrom('=' as const, '>' as const, '>=' as const, '<' as const, '<=' as const),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
    )
    .map(([field, op, value]) => ({ kind: 'compare' as const, field, op, value: Object.is(value, -0) ? 0 : value })),
  fc.constantFrom(...(Object.keys(HAS_WORDS) as HasWord[])).map((what) => ({ kind: 'has' as const, what })),
);

describe('printQuery', () => {
  it('parse(print(q)) gives back the same clauses', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ negated: fc.boolean(), term: termArb }), { maxLength: 5 }), (clauses) => {
        const query = { clauses: clauses.map((c) => ({ ...c, start: 0, end: 0 })) };
        const back = parseQuery(printQuery(query)).clauses.map(({ negated, term }) => ({ negated, term }));
        expect(back).toEqual(clauses);
      }),
    );
  });

  it('print is a fixed point after one parse', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (text) => {
        let once: string;
        try {
          once = printQuery(parseQuery(text));
        } catch {
          return; // not a query
        }
        expect(printQuery(parseQuery(once))).toBe(once);
      }),
    );
  });
});
