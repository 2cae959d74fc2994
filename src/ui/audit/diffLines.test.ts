import { describe, expect, it } from 'vitest';
import { diffLines } from './diffLines';

const ARTICLE_PATCH =
  'diff --git a/search.py b/search.py\n--- a/search.py\n+++ b/search.py\n@@ -5,7 +5,7 @@\n         if a[mid] == target:\n             return mid\n         if a[mid] < target:\n-            low = mid\n+            low = mid + 1\n         else:\n-            high = mid\n+            high = mid - 1\n     return -1\n';

describe('diffLines', () => {
  it('classifies a unified diff and numbers its lines', () => {
    const view = diffLines(ARTICLE_PATCH);
    expect(view.isDiff).toBe(true);
    expect(view.files).toEqual(['search.py']);
    expect([view.added, view.removed]).toEqual([2, 2]);
    expect(view.lines.map((l) => l.kind)).toEqual([
      'header',
      'header',
      'header',
      'hunk',
      'context',
      'context',
      'context',
      'del',
      'add',
      'context',
      'del',
      'add',
      'context',
    ]);
    expect(view.lines[7]).toEqual({ kind: 'del', text: '-            low = mid', oldNo: 8, newNo: null });
    expect(view.lines[8]).toEqual({ kind: 'add', text: '+            low = mid + 1', oldNo: null, newNo: 8 });
    expect(view.lines[12]).toMatchObject({ kind: 'context', oldNo: 11, newNo: 11 });
  });

  it('reads a second file’s header after a hunk as a header, not a deletion', () => {
    const view = diffLines(
      '--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n--- a/y.py\n+++ b/y.py\n@@ -2,0 +3 @@\n+c\n\\ No newline at end of file\n',
    );
    expect(view.files).toEqual(['x.py', 'y.py']);
    expect(view.lines.map((l) => l.kind)).toEqual(['header', 'header', 'hunk', 'del', 'add', 'header', 'header', 'hunk', 'add', 'meta']);
    expect(view.lines[8]).toMatchObject({ newNo: 3 });
    expect([view.added, view.removed]).toEqual([2, 1]);
  });

  it('names a new file by its +++ path and a deleted one by its --- path', () => {
    expect(diffLines('--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x\n').files).toEqual(['new.py']);
    expect(diffLines('--- a/old.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n').files).toEqual(['old.py']);
  });

  it('shows anything that is not a diff as plain text', () => {
    const view = diffLines('The answer is 42.\n- not a deletion\n');
    expect(view.isDiff).toBe(false);
    expect(view.lines.map((l) => l.kind)).toEqual(['text', 'text']);
    expect(diffLines('').lines).toEqual([]);
  });

  it('keeps markup as text', () => {
    const view = diffLines('@@ -1 +1 @@\n-<b>x</b>\n+<img src=x onerror=alert(1)>\n');
    expect(view.lines[2]?.text).toBe('+<img src=x onerror=alert(1)>');
  });
});
