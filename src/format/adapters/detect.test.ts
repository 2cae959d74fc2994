import { describe, expect, it } from 'vitest';
import { buildRollout, MINIMAL_RECORD_LINE } from '../../testing/builders';
import { detectFormat } from './detect';
import { FIXTURES, type FixtureName } from './fixtures';

function firstValue(name: FixtureName): unknown {
  const text = FIXTURES[name].text;
  const first = text.trimStart().startsWith('{\n') || text.trimStart().startsWith('[') ? text : (text.split('\n')[0] ?? '');
  return JSON.parse(first);
}

describe('detectFormat', () => {
  it.each([
    ['verifiersResults', 'verifiers-results'],
    ['verifiersOldResults', 'verifiers-results'],
    ['traces', 'verifiers-traces'],
    ['rllmEpisode', 'rllm-episode'],
    ['rllmEpisodes', 'rllm-episode'],
    ['sweTraj', 'swe-agent-traj'],
    ['sweRetryTraj', 'swe-agent-traj'],
    ['chat', 'openai-chat'],
  ] as const)('detects the %s fixture as %s', (fixture, format) => {
    expect(detectFormat({ name: FIXTURES[fixture].name, values: [firstValue(fixture)] })).toBe(format);
  });

  it('detects the same content under a neutral name (content decides, not the name)', () => {
    for (const fixture of ['verifiersResults', 'traces', 'rllmEpisode', 'sweTraj', 'chat'] as const) {
      expect(detectFormat({ name: 'data.jsonl', values: [firstValue(fixture)] })).not.toBeNull();
    }
  });

  it('detects v1 first, even when the record also looks like another format', () => {
    expect(detectFormat({ name: 'x.jsonl', values: [JSON.parse(MINIMAL_RECORD_LINE)] })).toBe('v1');
    const both = { ...buildRollout(), messages: [{ role: 'user', content: 'hi' }], prompt: [], completion: [], example_id: 1 };
    expect(detectFormat({ name: 'results.jsonl', values: [both] })).toBe('v1');
  });

  it('reads a v1 record that lacks a required field, or has one of the wrong type, as v1 (its own line is the error)', () => {
    const full = JSON.parse(MINIMAL_RECORD_LINE);
    for (const field of ['task_id', 'rollout_id', 'termination']) {
      const { [field]: _, ...lacking } = full;
      for (const name of ['x.jsonl', 'traces.jsonl', 'results.jsonl', 'run.traj']) {
        expect(detectFormat({ name, values: [{ ...lacking, messages: [{ role: 'user' }] }] })).toBe('v1');
      }
    }
    expect(detectFormat({ name: 'traces.jsonl', values: [{ ...full, segments: null }] })).toBe('v1');
  });

  it('keeps a chat line that carries v1-like ids a chat line (it has no segments)', () => {
    const chat = { messages: [{ role: 'user', content: 'hi' }], task_id: 't', rollout_id: 'r', termination: 'finished' };
    expect(detectFormat({ name: 'x.jsonl', values: [chat] })).toBe('openai-chat');
  });

  it('returns null for garbage, so the caller reads it as v1 and reports what is missing', () => {
    for (const v of [{}, { a: 1 }, [1, 2], 'text', 42, null, { messages: 'not a list' }, { trajectory: [] }]) {
      expect(detectFormat({ name: 'x.jsonl', values: [v] })).toBeNull();
    }
    expect(detectFormat({ name: 'x.jsonl', values: [] })).toBeNull();
  });

  it('falls back to the name the tool gives its files when the content matched nothing', () => {
    expect(detectFormat({ name: 'run/sympy__sympy-1.traj', values: [{ info: {} }] })).toBe('swe-agent-traj');
    expect(detectFormat({ name: 'run/results.jsonl', values: [{ x: 1 }] })).toBe('verifiers-results');
    expect(detectFormat({ name: 'step_3/all/traces.jsonl.gz', values: [{ x: 1 }] })).toBe('verifiers-traces');
  });

  it('looks inside an array value and skips values that are not objects', () => {
    expect(detectFormat({ name: 'x.json', values: [[{ trajectories: [] }]] })).toBe('rllm-episode');
    expect(detectFormat({ name: 'x.jsonl', values: [7, { messages: [{ role: 'user' }] }] })).toBe('openai-chat');
  });
});
