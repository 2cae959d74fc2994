import { useEffect, useRef } from 'react';

export interface QueueKeyActions {
  /** j / ↓ (1) and k / ↑ (-1). */
  move(by: 1 | -1): void;
  /** Enter: the item's rollout, on its Grader audit tab. */
  open(): void;
  /** n: the next of your items not reviewed yet. */
  next(): void;
  /** e: the note field. */
  note(): void;
}

/** What each key does, in the order the page lists them (QueueKeys.tsx shows this list). */
export const QUEUE_KEYS: readonly { keys: readonly string[]; what: string }[] = [
  { keys: ['j', '↓'], what: 'next item' },
  { keys: ['k', '↑'], what: 'previous item' },
  { keys: ['n'], what: 'next item you have not reviewed' },
  { keys: ['Enter'], what: 'open it in the Grader audit' },
  { keys: ['e'], what: 'write a note (Esc leaves it, saving it)' },
];

/**
 * The queue page's keys, besides the verdict keys (shared/useReviewKeys.ts). Ignored while typing and
 * with a modifier held; Enter on a focused button or link is that control's own.
 */
export function useQueueKeys(enabled: boolean, actions: QueueKeyActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      const target = e.target instanceof HTMLElement ? e.target : null;
      if (target?.closest('input, textarea, select, [contenteditable]')) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const act = latest.current;
      const run = (f: () => void) => {
        e.preventDefault();
        f();
      };
      if (e.key === 'j' || e.key === 'ArrowDown') run(() => act.move(1));
      else if (e.key === 'k' || e.key === 'ArrowUp') run(() => act.move(-1));
      else if (e.repeat) return;
      else if (e.key === 'n') run(act.next);
      else if (e.key === 'e') run(act.note);
      else if (e.key === 'Enter' && !target?.closest('button, a, summary')) run(act.open);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}

/** 1 to 9 pick the name at that place (the queue page before you have said who you are). */
export function usePickKeys(names: readonly string[], pick: (name: string) => void): void {
  const latest = useRef({ names, pick });
  latest.current = { names, pick };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLElement && e.target.closest('input, textarea, select, [contenteditable]')) return;
      if (e.metaKey || e.ctrlKey || e.altKey || e.repeat || !/^[1-9]$/.test(e.key)) return;
      const name = latest.current.names[Number(e.key) - 1];
      if (name === undefined) return;
      e.preventDefault();
      latest.current.pick(name);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
