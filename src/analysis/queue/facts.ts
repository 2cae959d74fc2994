import type { Finding } from '../types';

const SCAN_CODES: ReadonlySet<string> = new Set(['W_SCAN', 'E_SCAN']);
/** A scanner hit's message is led by its rule's id (scanners/scan.ts); ids are lower-case words joined by `-`. */
const RULE_ID = /^([a-z0-9][a-z0-9-]*): /;

/** The ids of the scanner rules among a rollout's findings, distinct and sorted. */
export function scannerRuleIds(findings: readonly Pick<Finding, 'code' | 'message'>[]): string[] {
  const ids = new Set<string>();
  for (const f of findings) {
    if (!SCAN_CODES.has(f.code)) continue;
    const id = RULE_ID.exec(f.message)?.[1];
    if (id !== undefined) ids.add(id);
  }
  return [...ids].sort();
}
