/*
 * Token strings as a person can see them. A chip needs width, and a reader needs to tell "·x" from
 * "x" and a newline from nothing, so whitespace and control characters become visible glyphs.
 */

const VISIBLE: Record<string, string> = {
  ' ': '·',
  '\n': '↵',
  '\t': '→',
  '\r': '␍',
  '\u00a0': '⍽',
  '\u0085': '↵',
  '\u2028': '↵',
  '\u2029': '¶',
};

/** Whitespace and control characters as visible glyphs (· space, ↵ newline, → tab, ␍, ⍽ no-break space, ␀…). */
export function visibleWhitespace(text: string): string {
  return text.replace(/[\s\p{Cc}]/gu, (c) => {
    const mapped = VISIBLE[c];
    if (mapped !== undefined) return mapped;
    const code = c.charCodeAt(0);
    // U+2400 is the Control Pictures block: ␀ for NUL, ␁ for SOH, ...; ␡ for DEL.
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '␡';
    // Other whitespace (en space, ideographic space, ...) reads as a space; C1 controls as a replacement mark.
    return /\s/u.test(c) ? '·' : '�';
  });
}

/** Whether a token ends a line of text (the chip layout starts a new row after it). */
export function endsLine(text: string): boolean {
  return text.includes('\n');
}

/**
 * A token as it would appear in a string literal: newlines, tabs and control characters escaped, all
 * else (quotes, markup, spaces) kept literally. Rendered as text, never as markup.
 */
export function escapeText(text: string): string {
  return text.replace(/[\p{Cc}\\]/gu, (c) => {
    if (c === '\\') return '\\\\';
    if (c === '\n') return '\\n';
    if (c === '\t') return '\\t';
    if (c === '\r') return '\\r';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
