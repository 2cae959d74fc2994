import type { LoadState } from './loadState';

/** Live loads by load key: the state a follower pushes new bytes into. Set when a load finishes. */
const liveStates = new Map<string, LoadState>();

export function registerLiveState(key: string, state: LoadState): void {
  liveStates.set(key, state);
}

export function liveState(key: string): LoadState | undefined {
  return liveStates.get(key);
}

export function forgetLiveState(key: string): void {
  liveStates.delete(key);
}
