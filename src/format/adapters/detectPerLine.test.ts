import { describe, expect, it } from 'vitest';
import { buildRollout } from '../../testing/builders';
import { parseText } from './fixtures';
import { createLineParser } from './lineParser';

/*
 * Detection never costs another format's valid lines (issue 18, "Inputs that lose more than their own
 * line"), and a file of no known format is said to be one, once (trajectory-format.md §8).
 */

const v1 = (id: string) => JSON.stringify(buildRollout({ rollout_id: id }));
const summary = (text: string, name = 'f.jsonl') => {
  const { results, unsupported } = parseText(text, name, {}, [7, 64]);
  return {
    rollouts: results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record.rollout_id] : [])),
    errors: results.flatMap((r) => (r.kind === 'error' ? [[r.value.line, r.value.code]] : [])),
    unsupported,
  };
};

describe('per-line detection', () => {
  it('a first line shaped like another tool’s format does not turn the v1 lines after it into E_SCHEMA', () => {
    const chat = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], rollout_id: 'chat-1' });
    expect(summary([chat, v1('r-1'), v1('r-2')].join('\n'))).toEqual({ rollouts: ['chat-1', 'r-1', 'r-2'], errors: [], unsupported: null });
  });

  it('a v1 file stays v1: a later line shaped like chat is that line’s v1 error, as before', () => {
    const chat = JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] });
    expect(summary([v1('r-1'), chat, v1('r-2')].join('\n'))).toEqual({
      rollouts: ['r-1', 'r-2'],
      errors: [[2, 'E_SCHEMA']],
      unsupported: null,
    });
  });

  it('lines of several known formats in one file each load as their own format', () => {
    const verl = JSON.stringify({ input: 'p', output: 'o', score: 1, step: 3 });
    const group = JSON.stringify({ tokens: [[1, 2]], masks: [[-100, 2]], scores: [1] });
    const { rollouts, errors } = summary([verl, group, v1('r-1')].join('\n'));
    expect(errors).toEqual([]);
    expect(rollouts).toEqual(['f.jsonl:1', 'f.jsonl:2/tokens[0]', 'r-1']);
  });

  it('a lone "{" first line: each later bad line is its own error on its own line, and the records load', () => {
    expect(summary(['{', 'not json', v1('r-1'), 'also bad'].join('\n'))).toEqual({
      rollouts: ['r-1'],
      errors: [
        [1, 'E_PARSE'],
        [2, 'E_PARSE'],
        [4, 'E_PARSE'],
      ],
      unsupported: null,
    });
  });

  it('a lone "{" followed only by bad lines folds nothing: no error numbered past the end of the file', () => {
    const { errors, unsupported } = summary(['{', 'not json', 'also bad', v1('r-1').slice(0, 20)].join('\n'));
    expect(errors).toEqual([]);
    // Not one record: a file of no known format, said once.
    expect(unsupported).toMatch(/^not JSON \(line 1 starts "\{"\) \(4 lines\): not a format Trajscope reads/);
  });

  it('a broken pretty-printed document is still one error, at the line where it breaks (not past the end)', () => {
    const { errors } = summary('{\n  "trajectory": [\n    {"action": "ls"\n  ],\n  "info": {}\n}\n', 'x.traj');
    expect(errors).toEqual([[4, 'E_PARSE']]);
  });
});

describe('files of no known format', () => {
  it('JSON objects of another shape: one line naming their fields and the known formats, no error per line', () => {
    const { errors, unsupported } = summary('{"a": 1, "b": 2}\n{"a": 3}\n');
    expect(errors).toEqual([]);
    expect(unsupported).toMatch(
      /^JSON objects with fields "a", "b" \(2 lines\): not a format Trajscope reads\. Known formats: Trajscope v1, /,
    );
    expect(unsupported).toContain('Atropos ScoredDataGroup JSONL');
    expect(unsupported).toContain('--map');
  });

  it('text that is not JSON says so, with the start of its first line', () => {
    expect(summary('hello world\nfoo\n').unsupported).toMatch(/^not JSON \(line 1 starts "hello world"\) \(2 lines\)/);
  });

  it('a v1 file whose lines are all broken records is still v1 (each line its error), not unsupported', () => {
    const broken = JSON.stringify({ task_id: 't', segments: 'nope', termination: 'finished' });
    expect(summary(`${broken}\n${broken}\n`)).toEqual({
      rollouts: [],
      errors: [
        [1, 'E_SCHEMA'],
        [2, 'E_SCHEMA'],
      ],
      unsupported: null,
    });
  });

  it('errors held before the first record are reported, in order, once a record shows the file’s format', () => {
    expect(summary(`{"a": 1}\nnot json\n${v1('r-1')}\n`)).toEqual({
      rollouts: ['r-1'],
      errors: [
        [1, 'E_SCHEMA'],
        [2, 'E_PARSE'],
      ],
      unsupported: null,
    });
  });

  it('an empty file is not unsupported: it holds nothing', () => {
    expect(summary('\n\n')).toEqual({ rollouts: [], errors: [], unsupported: null });
  });

  it('a forced format (--from) reads every line as that format, errors and all', () => {
    const { results, unsupported } = parseText('{"a": 1}\n', 'f.jsonl', { from: 'v1' });
    expect(unsupported).toBeNull();
    expect(results.map((r) => r.kind)).toEqual(['error']);
  });
});

describe('a whole JSON document of no known format', () => {
  it('is said once, with the lines it spans', () => {
    const { results, unsupported } = parseText('{\n  "run": "x",\n  "items": [1, 2]\n}\n', 'report.json');
    expect(results).toEqual([]);
    expect(unsupported).toMatch(/^JSON objects with fields "run", "items" \(4 lines\): not a format Trajscope reads/);
  });
});

describe('a followed file', () => {
  it('is unsupported so far while no line is recognised, and stops being so when a record arrives', () => {
    const parser = createLineParser('live.jsonl');
    const enc = new TextEncoder();
    expect(parser.push(enc.encode('{"a": 1}\n'))).toEqual([]);
    expect(parser.unsupported).toMatch(/^JSON objects with fields "a" \(1 line\)/);
    const results = parser.push(enc.encode(`${v1('r-1')}\n`));
    expect(results.map((r) => [r.kind, r.value.line])).toEqual([
      ['error', 1],
      ['rollout', 2],
    ]);
    expect(parser.unsupported).toBeNull();
  });
});
