import { describe, expect, it } from 'vitest';
import { argEntries, editArgs } from './callArgs';

describe('argEntries', () => {
  it('shows strings as they are and other values as JSON', () => {
    expect(argEntries({ path: 'search.py', line: 3, flags: { a: true } })).toEqual([
      { key: 'path', text: 'search.py', json: false, block: false },
      { key: 'line', text: '3', json: true, block: false },
      { key: 'flags', text: '{\n  "a": true\n}', json: true, block: true },
    ]);
  });

  it('puts multi-line and long values on lines of their own and leaves out the keys asked', () => {
    const [code, long] = argEntries({ code: 'a\nb', text: 'x'.repeat(61), old: 'o' }, ['old']);
    expect(code?.block).toBe(true);
    expect(long?.block).toBe(true);
    expect(argEntries({ old: 'o' }, ['old'])).toEqual([]);
  });

  it('keeps null and markup', () => {
    expect(argEntries({ v: null, p: '<img src=x>' }).map((e) => e.text)).toEqual(['null', '<img src=x>']);
  });
});

describe('editArgs', () => {
  it('finds the old and new text under the usual key pairs', () => {
    expect(editArgs({ path: 'a.py', old: 'x', new: 'y' })).toEqual({ oldKey: 'old', newKey: 'new', old: 'x', new: 'y' });
    expect(editArgs({ old_str: '', new_str: 'y' })?.oldKey).toBe('old_str');
    expect(editArgs({ old_string: 'a', new_string: 'b' })?.newKey).toBe('new_string');
  });

  it('is null without a string pair', () => {
    expect(editArgs({ path: 'a.py' })).toBeNull();
    expect(editArgs({ old: 'x', new: 3 })).toBeNull();
  });
});
