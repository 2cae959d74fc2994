import { describe, expect, it } from 'vitest';
import { buildRollout } from '../../testing/builders';
import { FIXTURES } from './fixtures';
import { arrayElementLines, countLines, parseWholeFile } from './wholeFile';

describe('arrayElementLines', () => {
  it('finds the line each top-level element starts on, ignoring brackets and commas inside strings and nested values', () => {
    const text = '[\n  {"a": "],[{"},\n  "x\\"]",\n\n  [1,\n 2], 3,\n  {"b": {"c": [4]}}\n]';
    expect(arrayElementLines(text, 0)).toEqual([2, 3, 5, 6, 7]);
  });

  it('handles an empty array and a one-line array', () => {
    expect(arrayElementLines('[]', 0)).toEqual([]);
    expect(arrayElementLines('[{"a":1},{"b":2}]', 0)).toEqual([1, 1]);
  });
});

describe('parseWholeFile', () => {
  it('is node-free text in, line results out: the browser can call it on a file it already read', () => {
    const result = parseWholeFile(FIXTURES.sweTraj.text, FIXTURES.sweTraj.name);
    expect(result.format).toBe('swe-agent-traj');
    expect(result.lines).toBe(countLines(FIXTURES.sweTraj.text));
    expect(result.results.map((r) => [r.kind, r.value.line])).toEqual([['rollout', 1]]);
  });

  it('reads an array of v1 records, each validated on its own line; a non-object element is E_PARSE at its line', () => {
    const text = `[\n${JSON.stringify(buildRollout({ rollout_id: 'a' }))},\n42,\n${JSON.stringify({ task_id: 't' })}\n]`;
    const { results, format } = parseWholeFile(text, 'list.json');
    expect(format).toBe('v1');
    expect(results.map((r) => [r.kind, r.value.line, r.kind === 'error' ? r.value.code : ''])).toEqual([
      ['rollout', 2, ''],
      ['error', 3, 'E_PARSE'],
      ['error', 4, 'E_SCHEMA'],
    ]);
  });

  it('honours options.from and passes metadata to the adapter', () => {
    const row = { example_id: 3, prompt: [], completion: [{ role: 'assistant', content: 'x' }], reward: 1 };
    const { results } = parseWholeFile(JSON.stringify(row), 'weird-name.json', {
      from: 'verifiers-results',
      metadata: { env_id: 'e', model: 'm' },
    });
    expect(results[0]?.kind === 'rollout' && results[0].value.record).toMatchObject({ task_id: 'e/3', policy_version: 'm' });
  });

  it('an empty text has no results; a scalar or an object of no known format is unsupported, said once', () => {
    expect(parseWholeFile('  \n', 'x.json')).toEqual({ results: [], format: null, lines: 1, unsupported: null });
    expect(parseWholeFile('"text"', 'x.json')).toMatchObject({ results: [], format: null, unsupported: 'JSON string values' });
    expect(parseWholeFile('{"a": 1,\n "b": [2]}', 'x.json').unsupported).toBe('JSON objects with fields "a", "b"');
    // Forced to a format, the same value is that format's error, named by line.
    expect(parseWholeFile('"text"', 'x.json', { from: 'v1' }).results[0]?.value).toMatchObject({
      code: 'E_PARSE',
      message: 'expected a JSON object, got string',
    });
  });

  it('an unclosed document is one error on its last line, never one past the end of the file', () => {
    const { results, lines } = parseWholeFile('{\n  "a": 1,\n', 'x.json');
    expect(lines).toBe(2);
    expect(results.map((r) => [r.kind, r.kind === 'error' ? r.value.line : null])).toEqual([['error', 2]]);
  });
});
