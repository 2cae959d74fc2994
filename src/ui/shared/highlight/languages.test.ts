import { describe, expect, it } from 'vitest';
import { languageForPath, looksLikeDiff } from './languages';

describe('languageForPath', () => {
  it('knows Python, JSON and diffs by extension, whatever the folder or case', () => {
    expect(languageForPath('search.py')).toBe('python');
    expect(languageForPath('src/pkg/Mod.PY')).toBe('python');
    expect(languageForPath('a\\b\\stubs.pyi')).toBe('python');
    expect(languageForPath('data/config.json')).toBe('json');
    expect(languageForPath('fix.patch')).toBe('diff');
  });

  it('is null for other files, dotfiles and names without an extension', () => {
    expect(languageForPath('README.md')).toBeNull();
    expect(languageForPath('.py')).toBeNull();
    expect(languageForPath('Makefile')).toBeNull();
    expect(languageForPath('py')).toBeNull();
    expect(languageForPath('<img src=x onerror=alert(1)>')).toBeNull();
  });
});

describe('looksLikeDiff', () => {
  it('recognises git and plain unified diffs', () => {
    expect(looksLikeDiff('diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n')).toBe(true);
    expect(looksLikeDiff('--- a/x.py\n+++ b/x.py\n@@ -1,2 +1,2 @@\n-a\n+b\n')).toBe(true);
    expect(looksLikeDiff('@@ -5,7 +5,7 @@\n-low = mid\n+low = mid + 1\n')).toBe(true);
  });

  it('is false for prose and code', () => {
    expect(looksLikeDiff('patch applied')).toBe(false);
    expect(looksLikeDiff('def f():\n    return 1 - 2\n')).toBe(false);
    expect(looksLikeDiff('--- a note\nnot a diff')).toBe(false);
  });
});
