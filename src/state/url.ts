/*
 * Selection lives in the query string and nowhere else: `?src=A&src=B&rollout=K`. These functions are
 * pure (string in, string out) so tests call them directly and every view reads the same truth.
 */

export const SRC_PARAM = 'src';
export const ROLLOUT_PARAM = 'rollout';
/** A source opened from the person's disk; the File itself is in the UI store and does not survive a reload. */
export const LOCAL_PREFIX = 'local:';

export interface Selection {
  /** Source ids in order: `local:<name>` or a URL. Empty means the embedded demo. */
  sources: string[];
  rollout: string | null;
}

export function readSelection(search: string): Selection {
  const params = new URLSearchParams(search);
  const sources = [...new Set(params.getAll(SRC_PARAM).filter((s) => s !== ''))];
  return { sources, rollout: params.get(ROLLOUT_PARAM) || null };
}

/** Opens other sources: whatever was selected inside the old ones no longer means anything. */
export function withSources(sources: readonly string[]): string {
  const params = new URLSearchParams();
  for (const s of sources) params.append(SRC_PARAM, s);
  return formatSearch(params);
}

/** Selects a rollout (null clears it), keeping the sources and any other parameter. */
export function withRollout(search: string, rollout: string | null): string {
  const params = new URLSearchParams(search);
  if (rollout === null) params.delete(ROLLOUT_PARAM);
  else params.set(ROLLOUT_PARAM, rollout);
  return formatSearch(params);
}

export function isLocalSource(id: string): boolean {
  return id.startsWith(LOCAL_PREFIX);
}

/** URLSearchParams escapes ':' and '/', which are legal in a query; keep them so links stay readable. */
export function formatSearch(params: URLSearchParams): string {
  const s = params.toString().replace(/%3A/gi, ':').replace(/%2F/gi, '/');
  return s === '' ? '' : `?${s}`;
}
