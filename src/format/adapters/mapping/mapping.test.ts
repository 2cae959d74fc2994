import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../fixtures';
import { at } from './path';
import { MappingError, parseFieldMapping } from './schema';

const ROOT = join(import.meta.dirname, '../../../..');
const example = (name: string) => readFileSync(join(ROOT, 'docs/examples/mapping', name), 'utf8');

function problems(text: string): string[] {
  try {
    parseFieldMapping(text);
  } catch (e) {
    if (e instanceof MappingError) return e.problems;
    throw e;
  }
  return [];
}

function records(jsonl: string, mapText: string, name = 'dump.jsonl') {
  const { results, format, unsupported } = parseText(jsonl, name, { mapping: parseFieldMapping(mapText) });
  return { results, format, unsupported, rollouts: results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record] : [])) };
}

describe('field mapping: validation names the mapping field', () => {
  it('a termination outside the five, an unknown field, a bad path, messages and turns together', () => {
    expect(problems('{"status": "s", "status_map": {"ok": "done"}}')).toEqual([
      'status_map.ok: expected one of finished, budget_exhausted, invalid_call, infra_failure, cancelled',
    ]);
    expect(problems('{"rewrd": "score"}')).toEqual(['unknown field "rewrd"']);
    expect(problems('{"reward": "a..b"}')).toEqual(['reward: expected dot-separated keys such as "result.score" (no empty parts)']);
    expect(problems('{"messages": {"path": "m"}, "turns": {"path": "t"}}')).toEqual(['turns: give "messages" or "turns", not both']);
    expect(problems('{"status_map": {"x": "finished"}}')).toEqual([
      'status_map: "status_map" needs "status" (the path of the status field)',
    ]);
    expect(problems('{"turns": {"path": "t", "ouput": "x"}}')).toEqual(['turns: unknown field "ouput"']);
    expect(problems('{ not json')[0]).toMatch(/^not valid JSON: /);
  });

  it('paths read keys and array indexes, and nothing else', () => {
    expect(at({ a: { b: [{ c: 1 }] } }, 'a.b.0.c')).toBe(1);
    expect(at({ a: [1] }, 'a.x')).toBeUndefined();
    expect(at({ a: {} }, 'a.constructor')).toBeUndefined();
    // A path of one key (the usual one) reads the same way.
    expect(at([7, 8], '1')).toBe(8);
    expect(at([7], 'length')).toBeUndefined();
    expect(at({}, 'constructor')).toBeUndefined();
    expect(at('text', 'length')).toBeUndefined();
  });
});

describe('field mapping: the worked examples of docs/formats.md', () => {
  it('the examples in the doc are exactly the files tested here', () => {
    const doc = readFileSync(join(ROOT, 'docs/formats.md'), 'utf8');
    const blocks = [...doc.matchAll(/<!-- example: (\S+) -->\n```(?:json|jsonl)\n([\s\S]*?)\n```/g)];
    expect(blocks.map((b) => b[1])).toEqual([
      'docs/examples/mapping/agent-runner.jsonl',
      'docs/examples/mapping/agent-runner.map.json',
      'docs/examples/mapping/chat-eval.jsonl',
      'docs/examples/mapping/chat-eval.map.json',
    ]);
    for (const [, path, body] of blocks) expect(`${body}\n`).toBe(readFileSync(join(ROOT, path ?? ''), 'utf8'));
  });

  it('agent-runner: turns as segments, executed calls as locator steps, statuses by the table, crash reward kept aside', () => {
    const { rollouts, results } = records(example('agent-runner.jsonl'), example('agent-runner.map.json'), 'runs/agent.jsonl');
    expect(results.filter((r) => r.kind === 'error')).toEqual([]);
    expect(rollouts.map((r) => [r.rollout_id, r.task_id, r.termination, r.reward, r.training_step, r.policy_version])).toEqual([
      ['ep-0007', 'fizzbuzz-3', 'finished', 1, 12, 'qwen3-8b-sft-0412'],
      ['ep-0008', 'fizzbuzz-3', 'budget_exhausted', 0, 12, 'qwen3-8b-sft-0412'],
      ['ep-0009', 'fizzbuzz-3', 'infra_failure', null, 12, 'qwen3-8b-sft-0412'],
    ]);
    const first = rollouts[0];
    expect(first?.task?.prompt).toBe('Make fizzbuzz.py print Fizz for multiples of 3.');
    expect(first?.segments.map((s) => [s.text, s.tool_call_id])).toEqual([
      ['Let me see the file.', 'runs/agent.jsonl:1/turns[0]'],
      ['Add the rule.', 'runs/agent.jsonl:1/turns[1]'],
      ['Done: multiples of 3 print Fizz.', null],
    ]);
    expect(first?.steps?.[1]).toEqual({
      tool_call_id: 'runs/agent.jsonl:1/turns[1]',
      tool_call_id_is_locator: true,
      tool: 'write_file',
      args: { path: 'fizzbuzz.py', text: "for i in range(1, 16):\n    print('Fizz' if i % 3 == 0 else i)\n" },
      observation: { text: 'wrote 64 bytes' },
    });
    // The raw status stays; unmapped fields go under extra; an excluded rollout's score is kept aside.
    expect(first?.extra).toEqual({ problem: expect.any(Object), outcome: 'solved', wall_s: 41.2 });
    expect(rollouts[2]?.extra).toMatchObject({ outcome: 'sandbox_crash', source_reward: 0 });
    // A call with no observation was not executed: no step.
    expect(rollouts[2]?.steps).toBeUndefined();
  });

  it('chat-eval: renamed roles, the sampled tokens on the answer, group ids as written', () => {
    const { rollouts, results } = records(example('chat-eval.jsonl'), example('chat-eval.map.json'));
    expect(results.filter((r) => r.kind === 'error')).toEqual([]);
    expect(rollouts.map((r) => [r.rollout_id, r.task_id, r.group_id, r.termination, r.reward])).toEqual([
      ['b3f1-1', '41', '41@ckpt-300', 'finished', 1],
      ['b3f1-2', '41', '41@ckpt-300', 'finished', 0],
      ['b3f1-3', '41', '41@ckpt-300', 'budget_exhausted', 0],
    ]);
    const seg = rollouts[1]?.segments;
    expect(seg).toHaveLength(1);
    expect(seg?.[0]).toMatchObject({
      input_ids: [3838, 374, 220, 1114, 353, 220, 1419, 30],
      generated_ids: [19503, 15],
      old_logprobs: [-0.12, -2.31],
      text: '381',
    });
    expect((rollouts[0] as { transcript?: unknown }).transcript).toEqual([
      { role: 'user', content: 'What is 17 * 23?', speaker: 'human', text: 'What is 17 * 23?', source_role: 'human' },
      { role: 'assistant', content: '391', speaker: 'bot', text: '391', source_role: 'bot' },
    ]);
  });

  it('a shape read through renamed roles: each message keeps its source role and its join, in one key order', () => {
    const line = {
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Oslo?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp_c: 4 } } }] },
      ],
    };
    const map = JSON.stringify({ messages: { path: 'contents', shape: 'gemini', roles: { user: 'system', tool: 'user' } } });
    const { rollouts } = records(`${JSON.stringify(line)}\n`, map);
    const transcript = (rollouts[0] as { transcript?: object[] }).transcript ?? [];
    const id = 'dump.jsonl:1/contents/call-0';
    // Key order too: a record is written out as it is (export, the CLI's JSON), and must not change with the reader.
    expect(JSON.stringify(transcript)).toBe(
      JSON.stringify([
        { source_role: 'user', role: 'system', content: 'Weather in Oslo?' },
        { role: 'assistant', content: null, tool_calls: [{ id_is_position: true, id, name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
        { joined_by: 'position', source_role: 'tool', role: 'user', content: '{"temp_c":4}', tool_call_id: id, name: 'get_weather' },
      ]),
    );
  });

  it('a record the mapping cannot read is its line’s error, naming the mapping field; no status is unknown', () => {
    const map = '{"reward": "score", "turns": {"path": "turns"}}';
    const { results } = records('{"score": "high", "turns": []}\n{"score": 1, "turns": {}}\n{"score": 2, "turns": []}\n', map);
    expect(results.map((r) => (r.kind === 'error' ? r.value.message : r.value.record.termination))).toEqual([
      "a field mapping (--map): score: expected a number or null (the mapping's reward)",
      "a field mapping (--map): turns: expected an array of turns (the mapping's turns.path)",
      'unknown',
    ]);
  });
});
