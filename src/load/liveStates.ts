import type { LiveLoad } from './worker/client';

/** Live loads by load key: where a follower pushes new bytes. Set when a load with followed sources ends. */
const liveLoads = new Map<string, LiveLoad>();

export function registerLiveLoad(key: string, live: LiveLoad): void {
  liveLoads.get(key)?.close();
  liveLoads.set(key, live);
}

export function liveLoad(key: string): LiveLoad | undefined {
  return liveLoads.get(key);
}

export function forgetLiveLoad(key: string): void {
  liveLoads.get(key)?.close();
  liveLoads.delete(key);
}
