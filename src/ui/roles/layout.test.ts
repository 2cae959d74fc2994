import { describe, expect, it } from 'vitest';
import type { RoleEvent } from './events';
import { BOX_WIDTH, eventSpan, formatClock, formatDuration, LANE_WIDTH, laneX, layoutRows } from './layout';

const event = (kind: RoleEvent['kind'], durationMs: number | null = null): RoleEvent => ({
  id: kind,
  kind,
  lane: null,
  laneEnd: null,
  title: '',
  detail: null,
  flows: [],
  caption: '',
  label: '',
  step: null,
  segment: null,
  startMs: null,
  durationMs,
  tone: 'normal',
});

describe('layoutRows', () => {
  it('stacks rows in order without overlap', () => {
    const { rows, height } = layoutRows([event('generate'), event('dispatch'), event('execute'), event('observe')]);
    for (let i = 1; i < rows.length; i++) {
      const prev = rows[i - 1];
      const row = rows[i];
      if (!prev || !row) throw new Error('missing row');
      expect(row.y).toBeGreaterThanOrEqual(prev.y + prev.height);
    }
    const last = rows.at(-1);
    expect(height).toBeGreaterThan((last?.y ?? 0) + (last?.height ?? 0));
  });

  it('makes room for a box’s third line', () => {
    const call = (status: 'ok' | 'error') => ({ tool_call_id: 'c', tool: 'run_tests', args: {}, observation: { status, text: '' } });
    const [plain, detailed] = layoutRows([
      { ...event('execute'), call: call('ok') },
      { ...event('execute'), call: call('error') },
    ]).rows;
    expect(detailed?.height).toBeGreaterThan(plain?.height ?? 0);
  });

  it('grows a box with its duration, up to a cap', () => {
    const [plain, short, long, huge] = layoutRows([
      event('execute'),
      event('execute', 60),
      event('execute', 900),
      event('execute', 60_000),
    ]).rows;
    expect(short?.height).toBeGreaterThan(plain?.height ?? 0);
    expect(long?.height).toBeGreaterThan(short?.height ?? 0);
    expect(huge?.height).toBeLessThan(200);
  });
});

describe('lanes', () => {
  it('places lanes left to right with room for a box', () => {
    expect(laneX('model')).toBeLessThan(laneX('harness'));
    expect(laneX('grader')).toBeLessThan(laneX('trainer'));
    expect(LANE_WIDTH).toBeGreaterThan(BOX_WIDTH);
  });
});

describe('eventSpan', () => {
  it('covers the lanes an event draws on, edge to edge', () => {
    const obs = {
      ...event('observe'),
      flows: [{ kind: 'observation' as const, from: 'environment' as const, to: 'model' as const, via: 'harness' as const, label: '' }],
    };
    const span = eventSpan(obs);
    expect(span.x1).toBeLessThan(laneX('model') - BOX_WIDTH / 2);
    expect(span.x2).toBeGreaterThan(laneX('environment') + BOX_WIDTH / 2);
    expect(span.x2).toBeLessThan(laneX('grader') - BOX_WIDTH / 2);
    expect(eventSpan({ ...event('excluded'), lane: 'harness', laneEnd: 'environment' }).x2).toBeGreaterThan(laneX('trainer'));
  });
});

describe('time labels', () => {
  it('formats durations and the clock', () => {
    expect(formatDuration(645)).toBe('645 ms');
    expect(formatDuration(1500)).toBe('1.50 s');
    expect(formatDuration(12_345)).toBe('12.3 s');
    expect(formatClock(645)).toBe('+0.645 s');
  });
});
