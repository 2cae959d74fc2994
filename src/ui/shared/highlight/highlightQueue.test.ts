import { describe, expect, it } from 'vitest';
import type { CodeLines } from './highlighter';
import { highlightQueue, type Tokenize } from './highlightQueue';
import type { HighlightLang } from './languages';

const linesOf = (code: string): CodeLines => [[{ content: code, color: '#000000', fontStyle: 0 }]];

/** A tokenizer that answers only when told: what it was asked, in order, and the answer to each. */
function controlled() {
  const asked: { code: string; lang: HighlightLang; answer: () => Promise<void> }[] = [];
  const tokenize: Tokenize = (code, lang) =>
    new Promise((resolve) => {
      asked.push({
        code,
        lang,
        answer: async () => {
          resolve(linesOf(code));
          await new Promise((r) => setTimeout(r, 0));
        },
      });
    });
  return { asked, tokenize };
}

describe('the highlight queue', () => {
  it('asks for one block at a time, once for blocks showing the same code, and keeps what it got', async () => {
    const { asked, tokenize } = controlled();
    const q = highlightQueue(tokenize);
    const got: string[] = [];
    q.later('a = 1', 'python', (l) => got.push(`one ${l[0]?.[0]?.content}`));
    q.later('a = 1', 'python', (l) => got.push(`two ${l[0]?.[0]?.content}`));
    q.later('{}', 'json', (l) => got.push(`json ${l[0]?.[0]?.content}`));
    // Nothing is answered in the caller's task, and the second block waits for the first.
    expect(got).toEqual([]);
    expect(asked.map((a) => a.code)).toEqual(['a = 1']);
    expect(q.now('a = 1', 'python')).toBeUndefined();
    await asked[0]?.answer();
    expect(got).toEqual(['one a = 1', 'two a = 1']);
    expect(asked.map((a) => a.code)).toEqual(['a = 1', '{}']);
    await asked[1]?.answer();
    expect(got).toEqual(['one a = 1', 'two a = 1', 'json {}']);
    // Kept: a block mounted again later is coloured in its render; the same text in another language is not.
    expect(q.now('a = 1', 'python')?.[0]?.[0]?.content).toBe('a = 1');
    expect(q.now('a = 1', 'json')).toBeUndefined();
  });

  it('drops the code of a block unmounted before its turn', async () => {
    const { asked, tokenize } = controlled();
    const q = highlightQueue(tokenize);
    const got: string[] = [];
    q.later('first', 'json', () => got.push('first'));
    const stop = q.later('gone', 'json', () => got.push('gone'));
    q.later('kept', 'json', () => got.push('kept'));
    stop();
    await asked[0]?.answer();
    await asked[1]?.answer();
    expect(asked.map((a) => a.code)).toEqual(['first', 'kept']);
    expect(got).toEqual(['first', 'kept']);
    expect(q.now('gone', 'json')).toBeUndefined();
  });

  it('leaves a block plain when its code cannot be tokenized, and goes on with the next', async () => {
    let calls = 0;
    const q = highlightQueue((code) => (++calls === 1 ? Promise.reject(new Error('no grammar')) : Promise.resolve(linesOf(code))));
    const got: string[] = [];
    q.later('bad', 'python', () => got.push('bad'));
    q.later('good', 'python', () => got.push('good'));
    for (let i = 0; i < 5 && got.length === 0; i++) await new Promise((r) => setTimeout(r, 0));
    expect(got).toEqual(['good']);
    expect(q.now('bad', 'python')).toBeUndefined();
  });
});

describe('a block that asks after its code was done', () => {
  it('is answered from what was kept, without asking the tokenizer again', async () => {
    const { asked, tokenize } = controlled();
    const q = highlightQueue(tokenize);
    q.later('x', 'python', () => undefined);
    await asked[0]?.answer();
    const got: string[] = [];
    q.later('x', 'python', (l) => got.push(l[0]?.[0]?.content ?? ''));
    expect(got).toEqual([]);
    await Promise.resolve();
    expect(got).toEqual(['x']);
    expect(asked).toHaveLength(1);
  });
});
