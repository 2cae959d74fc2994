import { describe, expect, it } from 'vitest';
import { qwen3Tokenizer } from '../chat/tokenizer';
import { PARAM_COUNT, type PolicyParams, paramsFromTable } from './params';
import { DEMO_SAMPLING, Policy } from './policy';
import { mulberry32 } from './rng';
import { contextAfter, HEAD, TEST_TASK } from './testContexts';
import { WEIGHTS_V1 } from './weights';

const tok = qwen3Tokenizer();
const head = HEAD;
const afterRedRun = contextAfter([
  ['read_file', { path: 'search.py' }, TEST_TASK.files.get('search.py') ?? ''],
  ['edit', { path: 'search.py', old: 'low = mid', new: 'low = mid + 1' }, 'patch applied'],
  ['run_tests', {}, '2 passed, 0 failed, 1 over budget'],
]);

/** Parameters away from the table, so no two candidates tie by accident. */
function jittered(seed: number): PolicyParams {
  const rng = mulberry32(seed);
  return { version: 'jitter', theta: paramsFromTable(WEIGHTS_V1).theta.map((t) => t + (rng() - 0.5)) };
}

function shifted(p: PolicyParams, i: number, h: number): PolicyParams {
  return { version: p.version, theta: p.theta.map((t, j) => (j === i ? t + h : t)) };
}

describe('the gradient of a call’s token log-probabilities through the trie', () => {
  const settings = [
    { name: 'T=1', sampling: DEMO_SAMPLING },
    { name: 'T=0.7', sampling: { ...DEMO_SAMPLING, temperature: 0.7 } },
    { name: 'top_p=0.95', sampling: { ...DEMO_SAMPLING, top_p: 0.95 } },
  ];
  for (const { name, sampling } of settings) {
    it(`matches central finite differences at every token and every parameter (${name})`, () => {
      const params = jittered(5);
      const policy = new Policy(params, sampling, tok);
      const h = 1e-6;
      let compared = 0;
      for (const text of [head, afterRedRun]) {
        const ctx = tok.encode(text);
        for (const c of policy.candidates(ctx)) {
          const scored = policy.scoreWithGrad(ctx, c.ids);
          if (!scored) continue; // cut by top-p: probability 0, no gradient
          for (let i = 0; i < PARAM_COUNT; i++) {
            const up = policy.withParams(shifted(params, i, h)).score(ctx, c.ids);
            const down = policy.withParams(shifted(params, i, -h)).score(ctx, c.ids);
            if (!up || !down) throw new Error('the path left the trie under a tiny change');
            scored.grads.forEach((g, t) => {
              const fd = ((up[t] ?? 0) - (down[t] ?? 0)) / (2 * h);
              expect(Math.abs((g[i] ?? 0) - fd)).toBeLessThan(1e-6);
              compared++;
            });
          }
        }
      }
      expect(compared).toBeGreaterThan(1000);
    }, 30_000);
  }

  it('sums over a call’s tokens to the softmax gradient (phi_chosen - E[phi]) / T', () => {
    const sampling = { ...DEMO_SAMPLING, temperature: 0.8 };
    const policy = new Policy(jittered(9), sampling, tok);
    const ctx = tok.encode(afterRedRun);
    const cands = policy.candidates(ctx);
    const total = cands.reduce((s, c) => s + c.mass, 0);
    for (const c of cands) {
      const scored = policy.scoreWithGrad(ctx, c.ids);
      if (!scored) throw new Error('no score');
      for (let i = 0; i < PARAM_COUNT; i++) {
        const expected = cands.reduce((s, d) => s + (d.mass / total) * (d.features.includes(i) ? 1 : 0), 0);
        const want = ((c.features.includes(i) ? 1 : 0) - expected) / sampling.temperature;
        const got = scored.grads.reduce((s, g) => s + (g[i] ?? 0), 0);
        expect(got).toBeCloseTo(want, 10);
      }
    }
  });
});
