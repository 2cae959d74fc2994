import { describe, expect, it } from 'vitest';
import { addLocalFiles, initialUiState, localIds, setComparePick, setProblemsOpen } from './uiStore';

describe('ui store', () => {
  it('holds one compare pick; the same pick again keeps the state', () => {
    const picked = setComparePick(initialUiState, 'r-1');
    expect(picked.comparePick).toBe('r-1');
    expect(setComparePick(picked, 'r-1')).toBe(picked);
    expect(setComparePick(picked, null).comparePick).toBeNull();
  });

  it('names local files by name, numbering repeats within one batch', () => {
    expect(localIds(['a.jsonl', 'b.jsonl', 'a.jsonl'])).toEqual(['local:a.jsonl', 'local:b.jsonl', 'local:a.jsonl (2)']);
  });

  it('replaces a file reopened under the same id and keeps the others', () => {
    const a1 = new File(['1'], 'a.jsonl');
    const a2 = new File(['2'], 'a.jsonl');
    const b = new File(['3'], 'b.jsonl');
    let s = addLocalFiles(initialUiState, [
      { id: 'local:a.jsonl', file: a1 },
      { id: 'local:b.jsonl', file: b },
    ]);
    s = addLocalFiles(s, [{ id: 'local:a.jsonl', file: a2 }]);
    expect(s.localFiles).toEqual({ 'local:a.jsonl': a2, 'local:b.jsonl': b });
  });

  it('toggling the problems panel to its current value keeps the state object', () => {
    expect(setProblemsOpen(initialUiState, initialUiState.problemsOpen)).toBe(initialUiState);
    expect(setProblemsOpen(initialUiState, false).problemsOpen).toBe(false);
  });
});
