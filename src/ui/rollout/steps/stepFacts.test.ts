import { describe, expect, it } from 'vitest';
import type { Segment, Step } from '../../../format';
import { formatLogprob } from '../../shared/format';
import {
  executionNote,
  formatDuration,
  formatProbability,
  generationStats,
  observationLanguage,
  statusTone,
  stepTiming,
} from './stepFacts';

// src/ui may not import the test builders (biome): two small literals instead.
const buildSegment = (o: Partial<Segment> = {}): Segment => ({
  input_ids: [1],
  generated_ids: [2],
  old_logprobs: [-1],
  tool_call_id: 'c-1',
  ...o,
});
const buildStep = (o: Partial<Step> = {}): Step => ({ tool_call_id: 'c-1', tool: 'read_file', args: { path: 'search.py' }, ...o });

describe('generationStats', () => {
  it('counts tokens, sums old_logprobs into the log-probability of the call and counts masked tokens', () => {
    const s = generationStats(buildSegment({ generated_ids: [1, 2, 3], old_logprobs: [-0.5, -0.25, -1], loss_mask: [1, 0, 1] }));
    expect(s).toEqual({ tokens: 3, logprob: -1.75, masked: 1, lengthMismatch: false });
  });

  it('says when old_logprobs and generated_ids differ in length', () => {
    expect(generationStats(buildSegment({ generated_ids: [1, 2], old_logprobs: [-1] })).lengthMismatch).toBe(true);
  });
});

describe('number formats', () => {
  it('writes log-probabilities with a minus sign and probabilities at any size', () => {
    expect(formatLogprob(-0.5612)).toBe('−0.56');
    expect(formatLogprob(-0.001)).toBe('0.00');
    expect(formatProbability(-0.5612)).toBe('0.57');
    expect(formatProbability(-12)).toBe('6.1e-6');
    expect(formatProbability(-2000)).toBe('e^−2000.00');
  });

  it('writes durations in ms, s or minutes', () => {
    expect(formatDuration(40)).toBe('40 ms');
    expect(formatDuration(900)).toBe('900 ms');
    expect(formatDuration(5060)).toBe('5.06 s');
    expect(formatDuration(123_400)).toBe('2 min 3 s');
  });
});

describe('executionNote', () => {
  it('says nothing for one attempt executed once (the defaults)', () => {
    expect(executionNote(buildStep())).toBeNull();
    expect(executionNote(buildStep({ attempts: 1, executions: 1 }))).toBeNull();
  });

  it('reads a retried call that ran once as such', () => {
    expect(executionNote(buildStep({ attempts: 2, executions: 1 }))).toEqual({
      tone: 'notice',
      text: '2 transport attempts, executed once',
    });
  });

  it('flags a call that never ran, and one that ran twice as a defect', () => {
    expect(executionNote(buildStep({ executions: 0 }))).toEqual({ tone: 'notice', text: '1 transport attempt, never executed' });
    expect(executionNote(buildStep({ attempts: 2, executions: 2 }))).toEqual({
      tone: 'defect',
      text: '2 transport attempts, executed 2 times: a duplicate execution',
    });
  });
});

describe('stepTiming', () => {
  it('gives the start relative to the rollout and the duration', () => {
    const step = buildStep({ started_at: '2026-09-22T08:00:02.360Z', ended_at: '2026-09-22T08:00:03.260Z' });
    expect(stepTiming(step, '2026-09-22T08:00:00.000Z')).toEqual({
      offset: '+2.36 s',
      duration: '900 ms',
      title: 'started 2026-09-22T08:00:02.360Z · ended 2026-09-22T08:00:03.260Z',
    });
  });

  it('keeps what it can from partial or unreadable times', () => {
    expect(stepTiming(buildStep(), undefined)).toBeNull();
    expect(stepTiming(buildStep({ started_at: 'soon' }), '2026-09-22T08:00:00Z')).toEqual({
      offset: null,
      duration: null,
      title: 'started soon',
    });
    expect(stepTiming(buildStep({ started_at: '2026-09-22T08:00:01Z', ended_at: '2026-09-22T08:00:02Z' }), undefined)?.duration).toBe(
      '1.00 s',
    );
  });
});

describe('observationLanguage', () => {
  it('colours a file read by its extension', () => {
    expect(observationLanguage(buildStep({ tool: 'read_file', args: { path: 'search.py' } }))).toBe('python');
    expect(observationLanguage(buildStep({ tool: 'view', args: { file_path: 'a/b.json' } }))).toBe('json');
  });

  it('leaves other results plain, unless they are a diff', () => {
    expect(
      observationLanguage(buildStep({ tool: 'edit', args: { path: 'search.py' }, observation: { text: 'patch applied' } })),
    ).toBeNull();
    expect(observationLanguage(buildStep({ tool: 'read_file', args: { path: 'notes.txt' } }))).toBeNull();
    expect(observationLanguage(buildStep({ tool: 'finish', args: {}, observation: { text: '@@ -1 +1 @@\n-a\n+b\n' } }))).toBe('diff');
  });
});

describe('statusTone', () => {
  it('maps the four statuses of the format and anything else', () => {
    expect(['ok', 'error', 'timeout', 'budget_exceeded', 'weird'].map(statusTone)).toEqual(['ok', 'error', 'timeout', 'budget', 'other']);
  });
});
