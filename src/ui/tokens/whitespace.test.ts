import { describe, expect, it } from 'vitest';
import { endsLine, escapeText, visibleWhitespace } from './whitespace';

describe('visibleWhitespace', () => {
  it('turns spaces, newlines and tabs into glyphs of the same count', () => {
    expect(visibleWhitespace(' the')).toBe('·the');
    expect(visibleWhitespace('\n\n')).toBe('↵↵');
    expect(visibleWhitespace('\tx\r\n')).toBe('→x␍↵');
    expect(visibleWhitespace('    ')).toBe('····');
  });

  it('shows control characters as control pictures and leaves other text alone', () => {
    expect(visibleWhitespace('\u0000\u001b\u007f\u0085\u2003')).toBe('␀␛␡↵·');
    expect(visibleWhitespace('\u0090')).toBe('�');
    expect(visibleWhitespace('<tool_call>')).toBe('<tool_call>');
    expect(visibleWhitespace('é中')).toBe('é中');
    expect(visibleWhitespace('')).toBe('');
  });
});

describe('escapeText', () => {
  it('escapes line breaks, tabs, control characters and backslashes, keeping markup literal', () => {
    expect(escapeText('a\nb\tc\\')).toBe('a\\nb\\tc\\\\');
    expect(escapeText('\u0001')).toBe('\\u0001');
    expect(escapeText('<img src=x onerror="y">')).toBe('<img src=x onerror="y">');
  });
});

describe('endsLine', () => {
  it('is true for any token holding a newline', () => {
    expect(endsLine('.\n')).toBe(true);
    expect(endsLine('\n   ')).toBe(true);
    expect(endsLine(' x')).toBe(false);
  });
});
