import { describe, expect, it } from 'vitest';
import { parseServedList } from './served';

describe('parseServedList', () => {
  it('reads the server’s list', () => {
    const list = [{ id: 'f0', name: 'runs/a.jsonl', size: 10, mtimeMs: 1, ino: 7 }];
    expect(parseServedList(JSON.stringify(list))).toEqual(list);
  });

  it('says "not served" for anything else: an HTML page, another JSON value, an entry missing a field', () => {
    expect(parseServedList('<!doctype html><title>404</title>')).toBeNull();
    expect(parseServedList('{"id":"f0"}')).toBeNull();
    expect(parseServedList('[{"id":"f0","name":"a","size":1}]')).toBeNull();
  });
});
