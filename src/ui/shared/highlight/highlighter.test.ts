import { describe, expect, it } from 'vitest';
import { loadHighlighter } from './highlighter';

const join = (lines: { content: string }[][]) => lines.map((l) => l.map((t) => t.content).join('')).join('\n');

describe('loadHighlighter', () => {
  it('tokenizes Python into coloured runs that join back to the exact code', async () => {
    const h = await loadHighlighter();
    const code = 'def search(a, target):\n    low = mid + 1  # <b>\n    return -1\n';
    const lines = h.tokenize(code, 'python');
    expect(join(lines)).toBe(code);
    const def = lines[0]?.find((t) => t.content === 'def');
    expect(def?.color).toMatch(/^#[0-9a-f]{6}/i);
  });

  it('keeps markup in the code as plain token text', async () => {
    const h = await loadHighlighter();
    const code = '<img src=x onerror="window.__xss=1">\n<script>alert(1)</script>';
    for (const lang of ['python', 'json', 'diff'] as const) expect(join(h.tokenize(code, lang))).toBe(code);
  });

  it('highlights diffs', async () => {
    const h = await loadHighlighter();
    const lines = h.tokenize('@@ -1 +1 @@\n-low = mid\n+low = mid + 1\n', 'diff');
    const removed = lines[1]?.[0]?.color;
    const added = lines[2]?.[0]?.color;
    expect(removed).toBeDefined();
    expect(added).toBeDefined();
    expect(removed).not.toBe(added);
  });
});
