import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { DEFAULT_RULES } from '../analysis';
import { type FieldMapping, MappingError, parseFieldMapping, parseScanRules, type ScanRule } from '../format';
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
  /** The default scanner rules are on. */
  scanners: boolean;
  /** The rule file the URL holds (applied only when it parses): its name and how many rules it has. */
  rules: { name: string; count: number } | null;
  /** Why the URL's rule file is not applied (names the rule and field), or null. */
  rulesProblem: string | null;
}

/** The read options the URL holds, the mapping validated: part of what a load is keyed on. */
export function useReadOptions(): ReadChoice {
  const selection = readSelection(useSearch());
  const { mapping, unknownAsFinished, scanners } = selection;
  const rulesName = selection.rules?.name ?? null;
  const rulesText = selection.rules?.text ?? null;
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
    let userRules: ScanRule[] | null = null;
    let rulesProblem: string | null = null;
    if (rulesText !== null) {
      try {
        userRules = parseScanRules(rulesText);
      } catch (e) {
        // The page checks a file before it puts it in the URL: this is a link edited by hand.
        rulesProblem = e instanceof Error ? e.message : String(e);
      }
    }
    const rules = userRules ?? (scanners ? DEFAULT_RULES : null);
    const read: ReadOptions = {
      ...(parsed ? { mapping: parsed } : {}),
      ...(unknownAsFinished ? { unknownAsFinished } : {}),
      ...(rules ? { rules } : {}),
    };
    const named = userRules && rulesName !== null ? { name: rulesName, count: userRules.length } : null;
    return { read, mappingText: mapping, mappingProblems: problems, unknownAsFinished, scanners, rules: named, rulesProblem };
  }, [mapping, unknownAsFinished, scanners, rulesName, rulesText]);
}

/** The whole selection from the URL. Re-renders on any URL change; views that need one field use it anyway. */
export function useSelection(): Selection {
  const search = useSearch();
  return useMemo(() => readSelection(search), [search]);
}
