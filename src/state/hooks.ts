import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSearch } from './location';
import { type ReadChoice, readChoiceOf } from './readChoice';
import { useUiStore } from './uiStore';
import { readParams, readSelection, type Selection } from './url';

/** Narrow selector hooks: a component re-renders only when the slice it reads changes. */

export const useProblemsOpen = () => useUiStore((s) => s.problemsOpen);
export const useNotice = () => useUiStore((s) => s.notice);
export const useComparePick = () => useUiStore((s) => s.comparePick);
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

/** The run the URL opens (`run=`), or null with files. */
export function useRunParam(): string | null {
  return readSelection(useSearch()).run;
}

export function useSelectedRolloutKey(): string | null {
  return readSelection(useSearch()).rollout;
}

/** The read options the URL holds, each checked as its CLI flag is: part of what a load is keyed on. */
export function useReadOptions(): ReadChoice {
  const { map, unknown, scan, rules } = readParams(useSearch());
  const rulesName = rules?.name ?? null;
  const rulesText = rules?.text ?? null;
  return useMemo(
    () =>
      readChoiceOf({ map, unknown, scan, rules: rulesName === null || rulesText === null ? null : { name: rulesName, text: rulesText } }),
    [map, unknown, scan, rulesName, rulesText],
  );
}

/** The whole selection from the URL. Re-renders on any URL change; views that need one field use it anyway. */
export function useSelection(): Selection {
  const search = useSearch();
  return useMemo(() => readSelection(search), [search]);
}
