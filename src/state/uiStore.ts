import { create } from 'zustand';
import { distinctNames } from '../format';
import { LOCAL_PREFIX } from './url';

/** Cross-view UI state only. Selection is in the URL (url.ts) and parsed data in react-query. */
export interface UiState {
  /** Files opened from disk, by source id (`local:<name>`). Not persisted: a reload forgets them. */
  localFiles: Record<string, File>;
  problemsOpen: boolean;
  /** A short message about the last thing the person did (e.g. files skipped on drop). */
  notice: string | null;
  /** The run list's first pick for a comparison (a row key): picking a second opens the compare page. */
  comparePick: string | null;
}

export const initialUiState: UiState = { localFiles: {}, problemsOpen: true, notice: null, comparePick: null };

/** `local:<name>` per file; a name repeated within one batch gets " (2)", " (3)" so both stay open. */
export function localIds(names: readonly string[]): string[] {
  // A browser gives a picked file's name, not its folder, so numbering is all that tells two apart.
  return distinctNames(names.map((name) => ({ name, parents: [] }))).map((name) => `${LOCAL_PREFIX}${name}`);
}

/** Registers opened files; a file opened again under the same id replaces the older one. */
export function addLocalFiles(state: UiState, files: ReadonlyArray<{ id: string; file: File }>): UiState {
  const localFiles = { ...state.localFiles };
  for (const { id, file } of files) localFiles[id] = file;
  return { ...state, localFiles };
}

export function setProblemsOpen(state: UiState, open: boolean): UiState {
  return state.problemsOpen === open ? state : { ...state, problemsOpen: open };
}

function setNotice(state: UiState, notice: string | null): UiState {
  return state.notice === notice ? state : { ...state, notice };
}

export function setComparePick(state: UiState, key: string | null): UiState {
  return state.comparePick === key ? state : { ...state, comparePick: key };
}

interface UiActions {
  /** Registers the files and returns their source ids, in order. */
  addLocalFiles(files: readonly File[]): string[];
  setProblemsOpen(open: boolean): void;
  setNotice(notice: string | null): void;
  setComparePick(key: string | null): void;
}

export const useUiStore = create<UiState & { actions: UiActions }>()((set) => ({
  ...initialUiState,
  actions: {
    addLocalFiles(files) {
      const ids = localIds(files.map((f) => f.name));
      set((s) =>
        addLocalFiles(
          s,
          files.map((file, i) => ({ id: ids[i] ?? `${LOCAL_PREFIX}${file.name}`, file })),
        ),
      );
      return ids;
    },
    setProblemsOpen: (open) => set((s) => setProblemsOpen(s, open)),
    setNotice: (notice) => set((s) => setNotice(s, notice)),
    setComparePick: (key) => set((s) => setComparePick(s, key)),
  },
}));
