import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LineResult } from '../jsonl';
import { createLineParser } from './lineParser';

/*
 * The published files of ../shared/real-data, read in place (never copied into the project) through the
 * parser the CLI and the browser share. The values asserted were read from the files themselves.
 */
const REAL = resolve(__dirname, '../../../../shared/real-data');
const HAS_REAL = existsSync(REAL);
const real = describe.skipIf(!HAS_REAL);
if (!HAS_REAL) console.info(`../shared/real-data is absent (${REAL}): real-file adapter tests skipped`);

// biome-ignore lint/suspicious/noExplicitAny: converted records are untyped JSON; the assertions check their shape
type Json = Record<string, any>;

function nth(xs: Json[], i: number): Json {
  const x = xs[i];
  if (x === undefined) throw new Error(`no element ${i}`);
  return x;
}

function read(path: string, chunk = 1 << 16) {
  const bytes = readFileSync(resolve(REAL, path));
  const parser = createLineParser(path.split('/').pop() ?? path);
  const results: LineResult[] = [];
  for (let at = 0; at < bytes.length; at += chunk) results.push(...parser.push(bytes.subarray(at, at + chunk)));
  results.push(...parser.end());
  const rollouts: Json[] = results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record as Json] : []));
  const errors = results.flatMap((r) => (r.kind === 'error' ? [r.value] : []));
  return { format: parser.format, lines: parser.lines, rollouts, errors };
}

function only(dir: string, ext: string): string {
  const name = readdirSync(resolve(REAL, dir)).find((f) => f.endsWith(ext));
  if (!name) throw new Error(`no ${ext} in ${dir}`);
  return `${dir}/${name}`;
}

real('Inspect AI', () => {
  it('streams every sample of a .eval zip into a rollout, in any chunk size', () => {
    const path = only('inspect-ai-eval', '.eval');
    for (const chunk of [1 << 16, 97]) {
      const { format, lines, rollouts, errors } = read(path, chunk);
      expect(format).toBe('inspect-eval');
      expect(errors).toEqual([]);
      expect(lines).toBe(10);
      expect(rollouts).toHaveLength(10);
      const five = nth(rollouts, 0);
      expect(five.task_id).toBe('popularity/5');
      expect(five.rollout_id).toMatch(/\.eval:samples\/5_epoch_1\.json$/);
      expect(five.policy_version).toBe('openai/gpt-4o-mini');
      expect(five.termination).toBe('finished');
      // This fixture's samples were written with no scores: no reward is made up.
      expect(five.reward).toBeNull();
      expect(five.segments).toHaveLength(1);
      expect(five.segments[0].text).toBe('Yes');
      expect(five.extra.sample_id).toBe(5);
      expect(five.extra.epoch).toBe(1);
    }
  });

  it('reads a .json log: tool calls with their ids, tool results as steps, the C score as 1', () => {
    const { format, rollouts, errors } = read('inspect-ai-json/2025-05-12T20-27-36-04-00_browser.json');
    expect(format).toBe('inspect-log');
    expect(errors).toEqual([]);
    expect(rollouts).toHaveLength(1);
    const r = nth(rollouts, 0);
    expect(r.rollout_id).toBe('ATYFNjyWUz4mZ5Dgj6yd4f');
    expect(r.task_id).toBe('browser/1');
    expect(r.reward).toBe(1);
    expect(r.extra.scores.includes.value).toBe('C');
    expect(r.steps.map((s: Json) => s.tool)).toEqual(['web_browser_go', 'web_browser_click', 'web_browser_click', 'web_browser_click']);
    expect(r.steps[0].tool_call_id).toBe('call_35FTpd6shR9efioDgeEBZ33s');
    expect(r.steps[0].args).toEqual({ url: 'https://www.aisi.gov.uk/' });
    expect(r.steps[0].observation.text).toMatch(/^\[132\] link "We are now the AI Security Institute"/);
    expect(r.segments[0].tool_call_id).toBe('call_35FTpd6shR9efioDgeEBZ33s');
    const guide = read('inspect-ai-json/2025-05-12T20-28-26-04-00_security-guide.json');
    expect(guide.errors).toEqual([]);
    expect(guide.rollouts.map((x) => x.reward)).toEqual([1, 1, 1]);
    expect(nth(guide.rollouts, 0).segments[0].text).toBe(
      'Use parameterized queries and prepared statements, sanitize inputs, and employ ORM frameworks.',
    );
  });
});

real('OpenHands', () => {
  it('evaluation output.jsonl (v0 events): one segment per LLM response, observations as steps', () => {
    const { format, rollouts, errors } = read('openhands-v0-eval/output.jsonl');
    expect(format).toBe('openhands-eval');
    expect(errors).toEqual([]);
    expect(rollouts.map((r) => r.task_id)).toEqual(['ponylang__ponyc-4595', 'ponylang__ponyc-4593', 'ponylang__ponyc-4588']);
    expect(rollouts.map((r) => r.steps.length)).toEqual([22, 32, 49]);
    expect(rollouts.map((r) => r.segments.length)).toEqual([23, 33, 49]);
    const step = nth(rollouts, 0).steps[0];
    expect(step).toMatchObject({
      tool_call_id: 'toolu_01',
      tool: 'execute_bash',
      args: { command: 'ls -l /workspace/ponylang__ponyc__0.1' },
    });
    expect(step.observation.exit_code).toBe(0);
    expect(step.observation.text.startsWith('total 300\n')).toBe(true);
    // The third run hit max_iterations ("Agent reached maximum iteration in headless mode").
    expect(rollouts.map((r) => r.termination)).toEqual(['finished', 'finished', 'budget_exhausted']);
    expect(nth(rollouts, 0).grading.artifact.startsWith('diff --git a/src/libponyc/ast/parser.c')).toBe(true);
    expect(nth(rollouts, 0).reward).toBeNull(); // test_result holds only the patch: not graded yet
  });

  it('a v0 event list is one rollout', () => {
    const basic = read('openhands-v0-traj/basic.json');
    expect(basic.format).toBe('openhands-events');
    expect(basic.errors).toEqual([]);
    expect(basic.rollouts).toHaveLength(1);
    expect(nth(basic.rollouts, 0).termination).toBe('finished');
    expect(nth(basic.rollouts, 0).steps[0].tool).toBe('str_replace_editor');
    expect(nth(basic.rollouts, 0).steps[0].observation.text.startsWith('--- /workspace/game_2048.py')).toBe(true);
    const chat = read('openhands-v0-traj/basic_interactions.json');
    expect(chat.errors).toEqual([]);
    expect(
      nth(chat.rollouts, 0)
        .segments.map((s: Json) => s.text)
        .slice(0, 1),
    ).toEqual(['1 + 1 equals 2.']);
  });

  it('V1 SDK ActionEvent/ObservationEvent history', () => {
    const { format, rollouts, errors } = read('openhands-v1-sdk/output.jsonl');
    expect(format).toBe('openhands-eval');
    expect(errors).toEqual([]);
    expect(rollouts.map((r) => r.steps.length)).toEqual([9, 9]);
    expect(nth(rollouts, 0).steps[0].tool_call_id).toBe('call_lqJrV0ubSCxJ29dCiALU4n30');
    expect(nth(rollouts, 0).steps[0].observation.text).toContain("David: Hi there, yes, actually, I'm facing an issue with ownCloud.");
    // The first ended on FinishAction; the second stopped after a bash call with no error and no finish.
    expect(rollouts.map((r) => r.termination)).toEqual(['finished', 'unknown']);
  });
});

real('tau-bench and tau2-bench', () => {
  it('tau-bench: 200 results, 50 tasks x 4 trials, reused call ids kept apart', () => {
    const { format, rollouts, errors } = read('tau-bench/gpt-4o-airline.json');
    expect(format).toBe('tau-bench');
    expect(errors).toEqual([]);
    expect(rollouts).toHaveLength(200);
    expect(rollouts.filter((r) => r.reward === 1)).toHaveLength(84);
    expect(rollouts.filter((r) => r.task_id === '0').map((r) => r.rollout_id)).toEqual([
      '0/trial-0',
      '0/trial-1',
      '0/trial-2',
      '0/trial-3',
    ]);
    const first = nth(rollouts, 0);
    expect(first.steps.map((s: Json) => s.tool)).toEqual([
      'get_user_details',
      'search_direct_flight',
      'search_onestop_flight',
      'calculate',
      'book_reservation',
      'think',
      'calculate',
      'book_reservation',
    ]);
    expect(first.steps[4].observation.text).toBe('Error: payment amount does not add up, total price is 305, but paid 255');
    // call_oIHazX6yQrB8hUwl4cRilFKj names get_user_details and, later, calculate: two calls, two ids.
    expect(first.steps[3]).toMatchObject({
      tool_call_id: 'call_oIHazX6yQrB8hUwl4cRilFKj#2',
      source_tool_call_id: 'call_oIHazX6yQrB8hUwl4cRilFKj',
    });
    expect(first.termination).toBe('finished');
  });

  it('tau2-bench simulations', () => {
    const { format, rollouts, errors } = read(only('tau2-bench-blakeelias', '.json'));
    expect(format).toBe('tau2-bench');
    expect(errors).toEqual([]);
    expect(rollouts.map((r) => r.reward)).toEqual([1, 1, 0, 1]);
    expect(rollouts.map((r) => r.extra.trial)).toEqual([2, 1, 0, 3]);
    expect(rollouts.every((r) => r.task_id === '8' && r.termination === 'finished')).toBe(true);
    expect(nth(rollouts, 0).steps[0]).toMatchObject({
      tool_call_id: 'call_76457061',
      tool: 'get_user_details',
      args: { user_id: 'sophia_silva_7557' },
    });
    expect(nth(rollouts, 0).policy_version).toBe('xai/grok-4-fast-reasoning');
    // The orchestrator's fixed greeting opens the messages: context, not a generation.
    expect(nth(rollouts, 0).transcript[0].content).toBe('Hi! How can I help you today?');
    expect(nth(rollouts, 0).segments[0].transcript_index).toBe(2);
    // Airline: only the agent calls tools, so every step is the policy's (no `actor`, as before issue 29).
    expect(rollouts.map((r) => r.steps.length)).toEqual([8, 8, 9, 8]);
    expect(rollouts.flatMap((r) => r.steps).every((s: Json) => s.actor === undefined)).toBe(true);
  });
});

real('NeMo Gym', () => {
  it('token ids and logprobs become real segments', () => {
    const { format, rollouts, errors } = read('nemo-gym-tokens/example_rollouts.jsonl');
    expect(format).toBe('nemo-gym');
    expect(errors).toEqual([]);
    expect(rollouts.map((r) => r.rollout_id)).toEqual(['0/1', '0/3', '0/4', '0/0', '0/2']);
    const [seg] = nth(rollouts, 0).segments;
    expect(seg.input_ids).toHaveLength(109);
    expect(seg.input_ids.slice(0, 3)).toEqual([151644, 872, 198]);
    expect(seg.generated_ids).toHaveLength(785);
    expect(seg.generated_ids[0]).toBe(151667);
    expect(seg.old_logprobs).toHaveLength(785);
    expect(seg.old_logprobs[0]).toBeCloseTo(-7.712543447269127e-5, 12);
    expect(nth(rollouts, 0).reward).toBe(0);
    expect(nth(rollouts, 0).termination).toBe('finished');
    expect(nth(rollouts, 0).transcript[1].reasoning).toMatch(/^\nOkay, I need to solve this problem/);
    // The input is the task: shown as the task, not "no task prompt recorded" (issue 31).
    expect(nth(rollouts, 0).task.prompt).toMatch(/^You are an expert competitive programmer\./);
  });

  it('tau2 rollouts: function calls and outputs as steps, tau2 termination', () => {
    const { rollouts, errors } = read('nemo-gym-tau2/example_rollouts.jsonl');
    expect(errors).toEqual([]);
    expect(rollouts.map((r) => r.reward)).toEqual([1, 1, 1, 1, 1]);
    expect(nth(rollouts, 0).task_id).toBe('192');
    expect(nth(rollouts, 0).steps[0]).toMatchObject({ tool: 'transfer_to_human_agents', observation: { text: 'Transfer successful' } });
    expect(nth(rollouts, 0).steps[0].tool_call_id).toBe('chatcmpl-tool-90efce0c18826617');
    expect(nth(rollouts, 0).termination).toBe('finished'); // result.termination_reason "user_stop"
  });
});

real('verifiers results (every published folder)', () => {
  const folders = HAS_REAL ? readdirSync(REAL).filter((d) => d.startsWith('verifiers-')) : [];
  it.each(folders)('%s opens whole', (dir) => {
    const { format, lines, rollouts, errors } = read(`${dir}/results.jsonl`);
    expect(format).toBe('verifiers-results');
    expect(errors).toEqual([]);
    expect(rollouts).toHaveLength(lines);
  });

  it('tool results that lost their call id are joined by position: as many steps as the run counted calls', () => {
    // metadata.json: avg_python_calls 1.9333 over 15 rows = 29 calls; every one was answered.
    const math = read('verifiers-math-python_gpt-4.1-mini/results.jsonl').rollouts;
    expect(math.reduce((n, r) => n + (r.steps?.length ?? 0), 0)).toBe(29);
    const step = nth(math, 0).steps[0];
    expect(step).toMatchObject({ tool_call_id: 'call_cWua4OnfQBU8kuqrChl01sfv', tool: 'python', joined_by: 'position' });
    expect(step.observation.text.startsWith('Traceback (most recent call last):')).toBe(true);
    // avg_metrics.total_tool_calls 3.88 over 100 rows = 388 calls: 385 answered, 3 cut by the turn cap.
    const wiki = read('verifiers-wiki-search_willcb_qwen3-4b-wiki-search/results.jsonl').rollouts;
    expect(wiki.reduce((n, r) => n + (r.steps?.length ?? 0), 0)).toBe(385);
  });

  it('statusless rows: a tool env that answered finished, one whose calls went unanswered hit a cap', () => {
    const wiki = read('verifiers-wiki-search_willcb_qwen3-4b-wiki-search/results.jsonl').rollouts;
    expect(wiki.filter((r) => r.termination === 'finished')).toHaveLength(97);
    expect(wiki.filter((r) => r.termination === 'budget_exhausted')).toHaveLength(3);
    // wordle ends on the environment's reply: natural end and turn cap look the same, so nothing is guessed.
    const wordle = read('verifiers-wordle_qwen_qwen3-30b-a3b-thinking-2507/results.jsonl').rollouts;
    expect(wordle.every((r) => r.termination === 'unknown')).toBe(true);
    expect(nth(wordle, 0).reward).toBe(0.7);
  });
});

real('OpenHands history as [action, observation] pairs (old EvalOutput)', () => {
  it('reads the pairs of the published events as it reads the events', () => {
    const line = readFileSync(resolve(REAL, 'openhands-v0-eval/output.jsonl'), 'utf8').split('\n')[0] ?? '';
    const row = JSON.parse(line);
    const pairs: unknown[] = [];
    for (let i = 0; i < row.history.length; i += 2) pairs.push(row.history.slice(i, i + 2));
    const parser = createLineParser('pairs.jsonl');
    const results = [...parser.push(new TextEncoder().encode(`${JSON.stringify({ ...row, history: pairs })}\n`)), ...parser.end()];
    const [r] = results;
    expect(r?.kind).toBe('rollout');
    const record = r?.kind === 'rollout' ? (r.value.record as Json) : {};
    expect(record.steps).toHaveLength(22);
    expect(record.steps[0].tool).toBe('execute_bash');
  });
});

real('NeMo Gym: token ids on another item of the call', () => {
  it('a call whose tokens sit on its first item is still one segment with its text', () => {
    const line = readFileSync(resolve(REAL, 'nemo-gym-tokens/example_rollouts.jsonl'), 'utf8').split('\n')[0] ?? '';
    const row = JSON.parse(line);
    const [reasoning, message] = row.response.output;
    const { prompt_token_ids, generation_token_ids, generation_log_probs, ...text } = message;
    row.response.output = [{ ...reasoning, prompt_token_ids, generation_token_ids, generation_log_probs }, text];
    const parser = createLineParser('moved.jsonl');
    const [r] = [...parser.push(new TextEncoder().encode(`${JSON.stringify(row)}\n`)), ...parser.end()];
    const record = r?.kind === 'rollout' ? (r.value.record as Json) : {};
    expect(record.segments).toHaveLength(1);
    expect(record.segments[0].generated_ids).toHaveLength(785);
    expect(record.segments[0].text.startsWith('\n\n```cpp\n#include <iostream>')).toBe(true);
  });
});

real('OpenHands V1 SDK events written one per line (issue 24)', () => {
  it('the published history of a row, one event per line, is one conversation read as the row reads it', () => {
    const rows = readFileSync(resolve(REAL, 'openhands-v1-sdk/output.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    const expected = read('openhands-v1-sdk/output.jsonl').rollouts;
    rows.forEach((line, i) => {
      const row = JSON.parse(line);
      const text = `${row.history.map((e: unknown) => JSON.stringify(e)).join('\n')}\n`;
      const parser = createLineParser('events.jsonl');
      const results = [...parser.push(new TextEncoder().encode(text)), ...parser.end()];
      expect(parser.format).toBe('openhands-events');
      expect(results.map((r) => [r.kind, r.value.line])).toEqual([['rollout', 1]]);
      const record = results[0]?.kind === 'rollout' ? (results[0].value.record as Json) : {};
      const eval_ = nth(expected, i);
      expect(record.steps).toEqual(eval_.steps);
      expect(record.segments).toEqual(eval_.segments);
      expect(record.transcript).toEqual(eval_.transcript);
      // The row's error and test_result are not in its events: only FinishAction says how it ended.
      expect(record.termination).toBe(eval_.termination);
    });
    expect(rows).toHaveLength(2);
  });
});
