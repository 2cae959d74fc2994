import { plural } from '../format';
import { FINDING_INFO } from './findingInfo';
import type { Finding, FindingCode } from './types';

/** Builds a finding with the code's severity; location defaults to the whole rollout. */
export function finding(code: FindingCode, message: string, at: { segment?: number; step?: number } = {}): Finding {
  return { code, severity: FINDING_INFO[code].severity, segment: at.segment ?? null, step: at.step ?? null, message };
}

/** "3 positions (first 17, 18, 40)": a short, bounded description of where something happens. */
export function describePositions(positions: number[], noun = 'position'): string {
  const head = positions.slice(0, 3).join(', ');
  const more = positions.length > 3 ? ', …' : '';
  return `${plural(positions.length, noun)} (${positions.length === 1 ? '' : 'first '}${head}${more})`;
}
