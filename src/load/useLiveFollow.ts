import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { parseServedList } from '../format';
import { catchUp, type SeenFiles } from './follow';
import { lintReportOptions, loadKey } from './lintReportQuery';
import { forgetLiveLoad, liveLoad } from './liveStates';
import type { ReadOptions } from './loadState';
import { isServedSource, SERVED_EVENTS_URL, servedFilesOptions } from './served';
import type { LoadSource } from './sources';

/**
 * While the sources include files served by `trajscope view`, listens to the server's change feed and
 * keeps the loaded data current: appended lines appear without a reload, a half-written last line waits
 * for its newline, a truncated or replaced file is read again, and new files show in the served list.
 */
export function useLiveFollow(
  sources: readonly LoadSource[],
  loaded: boolean,
  read: ReadOptions = {},
  onRun?: (mount: string) => void,
): void {
  const queryClient = useQueryClient();
  const key = loadKey(sources, read);
  const live = sources.some(isServedSource);

  useEffect(() => {
    if (!live || !loaded || typeof EventSource === 'undefined') return;
    const events = new EventSource(SERVED_EVENTS_URL);
    const seen: SeenFiles = new Map();
    let queue = Promise.resolve();
    const options = lintReportOptions(sources, read);
    if (onRun) events.addEventListener('run', (ev: MessageEvent<string>) => onRun(ev.data));
    events.addEventListener('files', (ev: MessageEvent<string>) => {
      const files = parseServedList(ev.data);
      if (!files) return;
      queryClient.setQueryData(servedFilesOptions().queryKey, files);
      // One catch-up at a time, in event order: two overlapping range reads would both append.
      queue = queue.then(async () => {
        const live = liveLoad(key);
        if (!live) return;
        const outcome = await catchUp(live, sources, files, seen).catch(() => 'reload' as const);
        if (outcome === 'unchanged') return;
        if (outcome !== 'reload') {
          queryClient.setQueryData(options.queryKey, outcome);
          return;
        }
        forgetLiveLoad(key);
        // `seen` keeps the list that caused the reload: a same-size rewrite after it is still noticed.
        await queryClient.invalidateQueries({ queryKey: options.queryKey });
      });
    });
    return () => events.close();
  }, [live, loaded, key, sources, queryClient, read, onRun]);
}

/**
 * While `trajscope view` serves no file yet (an empty run directory), follows its change feed for the
 * served list alone, so files open as they appear, without a reload (useLiveFollow takes over from there).
 * `onRun` hears that the served directory became a run (the server mounted its index).
 */
export function useServedListFollow(waiting: boolean, onRun?: (mount: string) => void): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!waiting || typeof EventSource === 'undefined') return;
    const events = new EventSource(SERVED_EVENTS_URL);
    if (onRun) events.addEventListener('run', (ev: MessageEvent<string>) => onRun(ev.data));
    events.addEventListener('files', (ev: MessageEvent<string>) => {
      const files = parseServedList(ev.data);
      if (files) queryClient.setQueryData(servedFilesOptions().queryKey, files);
    });
    return () => events.close();
  }, [waiting, queryClient, onRun]);
}
