import { describe, expect, it } from 'vitest';
import { toolCallText } from '../chat/chatml';
import { qwen3Tokenizer } from '../chat/tokenizer';
import { observe } from './observe';
import { paramsFromTable } from './params';
import { DEMO_SAMPLING, Policy, toBfloat16 } from './policy';
import { movesFor, REPERTOIRES } from './repertoire';
import { mulberry32 } from './rng';
import { AFTER_LOW_FIX, HEAD, TEST_TASK } from './testContexts';
import { moveWeight, WEIGHTS_V1, WEIGHTS_V2 } from './weights';

const tok = qwen3Tokenizer();
const task = TEST_TASK;
const rep = REPERTOIRES[0];
const head = HEAD;
const afterRead = AFTER_LOW_FIX;

/** log P(move) straight from the weights, without tokens or tries. */
function independentLogprob(text: string, key: string, temperature: number, version = WEIGHTS_V1): number {
  if (!rep) throw new Error('no repertoire');
  const seen = observe(text, rep);
  const masses = movesFor(rep).map((m) => ({ key: m.key, mass: moveWeight(m, seen, version) ** (1 / temperature) }));
  const total = masses.reduce((s, m) => s + m.mass, 0);
  return Math.log((masses.find((m) => m.key === key)?.mass ?? 0) / total);
}

describe('policy', () => {
  for (const temperature of [1, 0.6]) {
    it(`sums token log-probs to the call's log-probability under the policy (T=${temperature})`, () => {
      const policy = new Policy(paramsFromTable(WEIGHTS_V1), { ...DEMO_SAMPLING, temperature }, tok);
      const rng = mulberry32(3);
      for (const text of [head, afterRead]) {
        const ids = tok.encode(text);
        for (let i = 0; i < 20; i++) {
          const a = policy.act(ids, rng);
          const sum = a.logprobs.reduce((s, x) => s + x, 0);
          expect(sum).toBeCloseTo(independentLogprob(text, a.key, temperature), 9);
          expect(a.logprobs.every((lp) => lp <= 0)).toBe(true);
        }
      }
    });
  }

  it('generates exactly the tokens of a Qwen3 tool call, and scores them as it sampled them', () => {
    const policy = new Policy(paramsFromTable(WEIGHTS_V2), DEMO_SAMPLING, tok);
    const ids = tok.encode(afterRead);
    const a = policy.act(ids, mulberry32(9), 'fix:1');
    expect(tok.decode(a.ids)).toBe(toolCallText('edit', { path: 'search.py', old: 'high = mid', new: 'high = mid - 1' }));
    expect(policy.score(ids, a.ids)).toEqual(a.logprobs);
    const sum = a.logprobs.reduce((s, x) => s + x, 0);
    expect(sum).toBeCloseTo(independentLogprob(afterRead, 'fix:1', 1, WEIGHTS_V2), 9);
  });

  it('reads its state from the context: a fixed bound is known, a dropped file view is forgotten', () => {
    if (!rep) throw new Error('no repertoire');
    expect(observe(afterRead, rep)).toMatchObject({ readMain: true, applied: { 'fix:0': true, 'fix:1': false }, editsSinceTest: 1 });
    const compacted = afterRead.replace(task.files.get('search.py') ?? '', '[output omitted]');
    expect(observe(compacted, rep).readMain).toBe(false);
  });
});

describe('inference engines that differ from the trainer', () => {
  it('rounds to bfloat16 by the float32 bit pattern, ties to even', () => {
    expect(toBfloat16(1)).toBe(1);
    expect(toBfloat16(0)).toBe(0);
    // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to the even mantissa (1).
    expect(toBfloat16(1 + 2 ** -8)).toBe(1);
    expect(toBfloat16(1 + 3 * 2 ** -8)).toBe(1 + 2 ** -6);
    expect(toBfloat16(Math.PI)).toBe(3.140625);
  });
});
