import type { DigestComparison, TestContrast } from '../../analysis';
import type { WordedCheck } from './auditWords';

export interface AuditFlag {
  /** `none`: nothing to audit (no grading recorded), neither good nor bad. */
  tone: 'bad' | 'warn' | 'good' | 'none';
  text: string;
  /** Id of the section heading that explains it. */
  target: string;
}

/** A check's detail as a chip: capitalised, without the full stop. */
function sentence(text: string): string {
  const t = text.replace(/\.$/, '');
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}`;
}

/**
 * What deserves a look first, worst first: a digest mismatch, failed consistency checks, "dev tests
 * passed, private verdict failed", then what could not be checked. One reassuring flag when nothing is wrong.
 */
export function auditFlags(
  checks: readonly WordedCheck[],
  digest: DigestComparison | null,
  contrast: TestContrast,
  graded = true,
): AuditFlag[] {
  const flags: AuditFlag[] = [];
  const verdict = 'audit-verdict-title';
  if (digest?.status === 'mismatch') flags.push({ tone: 'bad', text: 'Digest mismatch', target: 'audit-artifact-title' });
  for (const c of checks) if (c.status === 'problem') flags.push({ tone: 'bad', text: sentence(c.detail), target: verdict });
  if (contrast.kind === 'dev-pass-private-fail') {
    flags.push({ tone: 'bad', text: 'Dev tests passed, private verdict failed', target: 'audit-tests-title' });
  }
  if (contrast.kind === 'dev-fail-private-pass') {
    flags.push({ tone: 'warn', text: 'Dev tests failed, private verdict passed', target: 'audit-tests-title' });
  }
  if (digest?.status === 'absent') flags.push({ tone: 'warn', text: 'No artifact digest recorded', target: 'audit-artifact-title' });
  if (digest?.status === 'unrecognised')
    flags.push({ tone: 'warn', text: 'Digest not SHA-256: not compared', target: 'audit-artifact-title' });
  for (const c of checks) if (c.status === 'unknown') flags.push({ tone: 'warn', text: sentence(c.detail), target: verdict });
  if (flags.length === 0 && !graded) {
    // Nothing passed a check because nothing was graded: never the green "nothing to flag" (issue 31).
    flags.push({ tone: 'none', text: 'No grading recorded: nothing to audit', target: verdict });
  } else if (flags.length === 0) {
    // Scoped to the grader: the rollout may still have lint findings (shown in its header and steps).
    const rewardFollows = checks.some((c) => c.id === 'reward-verdict' && c.status === 'ok');
    const text =
      digest?.status !== 'match'
        ? 'Grader: nothing to flag'
        : rewardFollows
          ? 'Grader: nothing to flag; the reward follows the verdict and the digest matches'
          : 'Grader: nothing to flag; the digest matches';
    flags.push({ tone: 'good', text, target: verdict });
  }
  return flags;
}
