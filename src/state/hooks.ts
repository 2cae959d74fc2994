import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { type FieldMapping, MappingError, parseFieldMapping } from '../format';
import type { ReadOptions } from '../load';
import { useSearch } from './location';
import { useUiStore } from './uiStore';
import { readSelection, type Selection } from './url';

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

export function useSelectedRolloutKey(): string | null {
  return readSelection(useSearch()).rollout;
}

export interface ReadChoice {
  /** What the load is given: the mapping only when it is valid. */
  read: ReadOptions;
  /** The mapping's JSON text as the URL holds it, or null. */
  mappingText: string | null;
  /** Why the URL's mapping is not applied (each problem names the mapping field), or null. */
  mappingProblems: string[] | null;
  unknownAsFinished: boolean;
  scanners: boolean;
}

/** The read options the URL holds, the mapping validated: part of what a load is keyed on. */
export function useReadOptions(): ReadChoice {
  const { mapping, unknownAsFinished, scanners } = readSelection(useSearch());
  return useMemo(() => {
    let parsed: FieldMapping | undefined;
    let problems: string[] | null = null;
    if (mapping !== null) {
      try {
        parsed = parseFieldMapping(mapping);
      } catch (e) {
        problems = e instanceof MappingError ? e.problems : [String(e)];
      }
    }
    const read: ReadOptions = {
      ...(parsed ? { mapping: parsed } : {}),
      ...(unknownAsFinished ? { unknownAsFinished } : {}),
      ...(scanners ? { scanners } : {}),
    };
    return { read, mappingText: mapping, mappingProblems: problems, unknownAsFinished, scanners };
  }, [mapping, unknownAsFinished, scanners]);
}

/** The whole selection from the URL. Re-renders on any URL change; views that need one field use it anyway. */
export function useSelection(): Selection {
  const search = useSearch();
  return useMemo(() => readSelection(search), [search]);
}
