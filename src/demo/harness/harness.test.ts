import { afterEach, describe, expect, it } from 'vitest';
import { toolCallText } from '../chat/chatml';
import { qwen3Tokenizer } from '../chat/tokenizer';
import { Sandbox } from '../environment/sandbox';
import { FaultInjector } from '../faults';
import { mulberry32 } from '../policy/rng';
import { taskById } from '../tasks';
import { EPOCH_MS, SimClock } from './clock';
import { type Model, runHarness } from './harness';

const tok = qwen3Tokenizer();
const task = taskById('binary-search-001');
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.dispose()));
});

/** A stand-in model that always says the same thing, with made-up but well-formed log-probs. */
function parrot(text: string): Model {
  const ids = tok.encode(text);
  return { act: () => ({ ids, logprobs: ids.map(() => -0.1), key: 'parrot' }) };
}

async function run(model: Model, maxActions = 10) {
  const sandbox = await Sandbox.create(task);
  open.push(sandbox);
  const cancel = new AbortController();
  return runHarness(
    {
      task,
      policy: model,
      rng: mulberry32(1),
      budget: { max_actions: maxActions, max_seconds: 600 },
      clock: new SimClock(EPOCH_MS),
      sandbox,
      faults: new FaultInjector([], sandbox, cancel),
      cancel: cancel.signal,
    },
    tok,
  );
}

describe('harness', () => {
  it('ends an unparsable generation as invalid_call, with no call id and nothing executed', async () => {
    const r = await run(parrot('I would rather explain the bug.<|im_end|>'));
    expect(r.termination).toBe('invalid_call');
    expect(r.detail).toBe('the generation is not one <tool_call> block');
    expect(r.segments).toHaveLength(1);
    expect(r.segments[0]?.tool_call_id).toBeNull();
    expect(r.steps).toEqual([]);
  });

  it('stops at the action budget, stamping call ids and simulated times', async () => {
    const r = await run(parrot(toolCallText('read_file', { path: 'search.py' })), 3);
    expect(r.termination).toBe('budget_exhausted');
    expect(r.steps.map((s) => s.tool_call_id)).toEqual(['c-001', 'c-002', 'c-003']);
    expect(r.steps[0]?.started_at).toMatch(/^2026-09-22T08:00:00\.\d{3}Z$/);
    expect(r.segments.map((s) => s.tool_call_id)).toEqual(['c-001', 'c-002', 'c-003']);
    // Each context extends the previous one by its generation and the observation.
    const [a, b] = r.segments;
    expect(b?.input_ids.slice(0, (a?.input_ids.length ?? 0) + (a?.generated_ids.length ?? 0))).toEqual([
      ...(a?.input_ids ?? []),
      ...(a?.generated_ids ?? []),
    ]);
  });
});
