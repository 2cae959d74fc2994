import { type Rollout, type ScanRule, type Step, type StepMatch, segmentText } from '../../format';
import { finding } from '../finding';
import { nameMatcher } from '../search/query';
import { terminationInfo } from '../termination';
import type { Finding, Regression } from '../types';

/*
 * Scanners (issue 26, docs/scanners.md): each rule's conditions over one rollout, its hits as findings
 * with the step they cite. A rule's hit is W_SCAN or E_SCAN by its severity, its message led by the rule id,
 * so the run list filters scanner hits by code and search finds a rule by its id.
 */

const cache = new Map<string, RegExp>();
function re(source: string): RegExp {
  let r = cache.get(source);
  if (!r) {
    r = new RegExp(source, 'i');
    cache.set(source, r);
  }
  return r;
}

const toolMatchers = new Map<string, (tool: string) => boolean>();

/** `edit` matches exactly edit (any case), `*` any run of characters (as search's `tool:`), `a|b` either. */
function toolMatches(pattern: string, tool: string): boolean {
  let matches = toolMatchers.get(pattern);
  if (!matches) {
    const each = pattern.split('|').map(nameMatcher);
    matches = (t) => each.some((m) => m(t));
    toolMatchers.set(pattern, matches);
  }
  return matches(tool);
}

function argText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v ?? null);
}

function stepMatches(m: StepMatch, step: Step): boolean {
  if (m.tool !== undefined && !toolMatches(m.tool, step.tool)) return false;
  if (typeof m.args === 'string' && !re(m.args).test(JSON.stringify(step.args ?? {}))) return false;
  if (m.args !== undefined && typeof m.args !== 'string') {
    for (const [key, pattern] of Object.entries(m.args)) if (!re(pattern).test(argText(step.args?.[key]))) return false;
  }
  if (m.observation !== undefined && !re(m.observation).test(step.observation?.text ?? '')) return false;
  if (m.status !== undefined && !m.status.includes(step.observation?.status ?? '')) return false;
  if (m.tests !== undefined) {
    const passed = step.tests?.passed?.length ?? 0;
    const failing = (step.tests?.failed?.length ?? 0) + (step.tests?.over_budget?.length ?? 0);
    if (m.tests === 'all-passed' && !(passed > 0 && failing === 0)) return false;
    if (m.tests === 'some-failed' && failing === 0) return false;
  }
  return true;
}

function compare(op: string, a: number, b: number): boolean {
  switch (op) {
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '=':
      return a === b;
    default:
      return a !== b;
  }
}

function generatedText(record: Rollout): string {
  return record.segments.map((s) => segmentText(s) ?? s.generated_tokens?.join('') ?? '').join('\n');
}

function rolloutMatches(when: ScanRule['when'], record: Rollout): boolean {
  if (!when) return true;
  if (when.termination !== undefined && !when.termination.includes(record.termination)) return false;
  if (when.reward !== undefined && (typeof record.reward !== 'number' || !compare(when.reward.op, record.reward, when.reward.value)))
    return false;
  if (when.verdict !== undefined && !when.verdict.includes(record.grading?.verdict ?? '')) return false;
  if (when.in_signal !== undefined && terminationInfo(record.termination).inSignal !== when.in_signal) return false;
  if (when.generated !== undefined && !re(when.generated).test(generatedText(record))) return false;
  return true;
}

/** "edit(path=tests/test_search.py)": a short citation of the call, for the hit's message. */
function cite(step: Step): string {
  const args = Object.entries(step.args ?? {})
    .slice(0, 2)
    .map(([k, v]) => `${k}=${argText(v).slice(0, 60)}`)
    .join(', ');
  return `${step.tool}(${args})`;
}

function hit(rule: ScanRule, detail: string, step?: number): Finding {
  const code = rule.severity === 'error' ? 'E_SCAN' : 'W_SCAN';
  return finding(code, `${rule.id}: ${rule.title}${detail ? ` (${detail})` : ''}`, step === undefined ? {} : { step });
}

/** The hits of one rule on one rollout. Steps are cited 1-based, as they are numbered everywhere. */
function scanOne(rule: ScanRule, record: Rollout, regressions: readonly Regression[]): Finding[] {
  if (!rolloutMatches(rule.when, record)) return [];
  const steps = record.steps ?? [];
  if (rule.step) {
    const m = rule.step;
    return steps.flatMap((s, i) => (stepMatches(m, s) ? [hit(rule, `step ${i + 1}: ${cite(s)}`, i + 1)] : []));
  }
  if (rule.repeat) {
    const { times, step: m } = rule.repeat;
    const out: Finding[] = [];
    let run = 1;
    for (let i = 1; i <= steps.length; i++) {
      const a = steps[i - 1];
      const b = steps[i];
      const same =
        a && b && a.tool === b.tool && JSON.stringify(a.args ?? {}) === JSON.stringify(b.args ?? {}) && (!m || stepMatches(m, b));
      if (same) run++;
      else {
        if (run >= times && a) out.push(hit(rule, `steps ${i - run + 1}–${i}: ${cite(a)} ${run} times in a row`, i - run + 1));
        run = 1;
      }
    }
    return out;
  }
  if (rule.none) {
    const m = rule.none;
    return steps.some((s) => stepMatches(m, s)) ? [] : [hit(rule, `none of ${steps.length} steps`)];
  }
  if (rule.regression) {
    const kinds = rule.regression;
    return regressions.filter((r) => kinds.includes(r.kind)).map((r) => hit(rule, `step ${r.step}: ${r.kind}`, r.step));
  }
  return [hit(rule, '')];
}

/** Every rule's hits on one rollout, rule by rule. */
export function scanRollout(record: Rollout, regressions: readonly Regression[], rules: readonly ScanRule[]): Finding[] {
  return rules.flatMap((rule) => scanOne(rule, record, regressions));
}
