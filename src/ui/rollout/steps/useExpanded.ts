import { useCallback, useState } from 'react';

export interface Expanded {
  /** Whether the part named `key` is open; `byDefault` until the person toggles it. */
  isOpen(key: string, byDefault?: boolean): boolean;
  toggle(key: string, byDefault?: boolean): void;
}

/**
 * Which folded parts of the view the person opened or closed. Held above the virtual list, so a row
 * that scrolls out and back in keeps its state.
 */
export function useExpanded(): Expanded {
  const [overrides, setOverrides] = useState<ReadonlyMap<string, boolean>>(() => new Map());
  const isOpen = useCallback((key: string, byDefault = false) => overrides.get(key) ?? byDefault, [overrides]);
  const toggle = useCallback((key: string, byDefault = false) => {
    setOverrides((m) => new Map(m).set(key, !(m.get(key) ?? byDefault)));
  }, []);
  return { isOpen, toggle };
}
