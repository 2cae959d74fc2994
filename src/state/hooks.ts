import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { navigate, useSearch } from './location';
import { useUiStore } from './uiStore';
import { type RolloutTab, readSelection, type Selection, withParams, withRollout, withSources } from './url';

/** Narrow selector hooks: a component re-renders only when the slice it reads changes. */

export const useProblemsOpen = () => useUiStore((s) => s.problemsOpen);
export const useNotice = () => useUiStore((s) => s.notice);
/** Actions never change, so reading them never re-renders. */
export const useUiActions = () => useUiStore((s) => s.actions);

/** The opened File for each id, or undefined where a reload lost it. */
export function useLocalFiles(ids: readonly string[]): Array<File | undefined> {
  return useUiStore(useShallow((s) => ids.map((id) => s.localFiles[id])));
}

/** Source ids from the URL, in order; empty for the embedded demo. */
export function useSourceIds(): string[] {
  const search = useSearch();
  // Keyed on the whole query string: selecting a row must not hand out a new array.
  const joined = readSelection(search).sources.join('\n');
  return useMemo(() => (joined === '' ? [] : joined.split('\n')), [joined]);
}

export function useSelectedRolloutKey(): string | null {
  return readSelection(useSearch()).rollout;
}

export function selectRollout(key: string | null): void {
  navigate(withRollout(window.location.search, key), { replace: true });
}

export function openSources(ids: readonly string[]): void {
  navigate(withSources(ids));
}

/** The whole selection from the URL. Re-renders on any URL change; views that need one field use it anyway. */
export function useSelection(): Selection {
  const search = useSearch();
  return useMemo(() => readSelection(search), [search]);
}

/**
 * Changes selection parameters. `replace` (the default) for moves the back button should skip, such as
 * hovering through tokens or stepping through rows; push for opening a page.
 */
export function setParams(patch: Record<string, string | null>, { replace = true }: { replace?: boolean } = {}): void {
  navigate(withParams(window.location.search, patch), { replace });
}

/** Leaves the inspector for the run list, the rollout still selected there (a new history entry). */
export function backToList(): void {
  setParams({ view: null, tab: null, step: null, seq: null, tok: null }, { replace: false });
}

/** Opens one rollout's inspector (a new history entry, so Back returns to the list). */
export function openRollout(key: string, at: { tab?: RolloutTab; step?: number } = {}): void {
  setParams(
    { rollout: key, view: 'rollout', tab: at.tab ?? null, step: at.step === undefined ? null : String(at.step), seq: null, tok: null },
    { replace: false },
  );
}
