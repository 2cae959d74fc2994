import type { LineResult, LoadedRollout, Rollout } from '../format';
import { failureSignature } from './failureModes/signature';
import { finding } from './finding';
import { groupAdvantages, groupIdOf, samplingKey } from './groups';
import { rolloutMismatch } from './mismatch';
import { findRegressions } from './regressions';
import { type CheckOptions, rolloutFindings } from './rolloutChecks';
import { scanRollout } from './scanners/scan';
import { terminationInfo } from './termination';
import type { Finding, GroupSummary, LintReport, RolloutSummary } from './types';

/**
 * What the group checks need of a record beyond its summary. A parse worker computes it with the summary
 * (see `rolloutFacts`), so the session can be fed without the record.
 */
export interface RolloutFacts {
  policy: string | undefined;
  env: string | undefined;
  sampling: string;
}

/** What a group needs to remember of each member; the record itself can then be dropped. */
/** What the group statistics read of a member (a run index supplies these from its columns). */
export interface GroupMember extends RolloutFacts {
  rolloutId: string;
  attemptId: string | null;
  inSignal: boolean;
  unknown: boolean;
  reward: number | null;
}

interface Member extends GroupMember {
  index: number;
  /** Where it was read, for E_DUPLICATE_ROLLOUT's "also appears at". */
  file: string;
  line: number;
}

/** The facts about a record that the cross-rollout (group) checks read. */
export function rolloutFacts(record: Rollout): RolloutFacts {
  return { policy: record.policy_version, env: record.environment_version, sampling: samplingKey(record) };
}

/** Summarises one rollout without the cross-rollout checks. */
export function summarizeRollout(loaded: LoadedRollout, options: CheckOptions = {}): RolloutSummary {
  const r = loaded.record;
  const counted = options.unknownAsFinished === true && r.termination === 'unknown';
  const mismatch = rolloutMismatch(r, options.isCap);
  const regressions = findRegressions(r);
  const summary: RolloutSummary = {
    file: loaded.file,
    line: loaded.line,
    task_id: r.task_id,
    rollout_id: r.rollout_id,
    attempt_id: r.attempt_id ?? null,
    group_id: groupIdOf(r),
    termination: r.termination,
    in_signal: terminationInfo(r.termination).inSignal || counted,
    ...(counted ? { counted_as_finished: true as const } : {}),
    reward: r.reward ?? null,
    // Steps are what the harness executed; a record without `steps` recorded none (never invented).
    steps: r.steps?.length ?? 0,
    regressions,
    findings: options.rules ? [...rolloutFindings(r, options), ...scanRollout(r, regressions, options.rules)] : rolloutFindings(r, options),
    ...(mismatch ? { mismatch } : {}),
  };
  const failure = failureSignature(r, summary);
  if (failure) summary.failure = failure;
  return summary;
}

/** A bad line as the report lists it. */
type ParseErrorEntry = LintReport['parse_errors'][number];

/**
 * Where a session hands what it does not keep: each bad line and each rollout's summary, in input order,
 * as they come. `lint --json` writes them to disk, so its memory does not grow with them.
 */
export interface LintSink {
  parseError(error: ParseErrorEntry): void;
  rollout(summary: RolloutSummary): void;
}

/** What the report holds beyond the sink's lines and summaries, known only once every line is in. */
export interface LintTotals {
  summary: LintReport['summary'];
  groups: GroupSummary[];
  /** E_DUPLICATE_ROLLOUT, by the index of the rollout whose findings it leads. */
  duplicates: ReadonlyMap<number, Finding>;
}

/**
 * Builds the lint report incrementally: feed it every parsed line, in order. It keeps, per rollout, only
 * what the cross-rollout checks read (a `Member`: ids, file and line, reward, flags, its group's facts
 * with repeated strings shared) and by default the summaries and bad lines too; given a `LintSink`, it
 * hands those on and keeps only their counts, so memory no longer grows with bad lines at all.
 */
export class LintSession {
  private lines = 0;
  private count = 0;
  private parseErrorCount = 0;
  private errors = 0;
  private warnings = 0;
  private readonly parseErrors: ParseErrorEntry[] = [];
  private readonly rollouts: RolloutSummary[] = [];
  private readonly members = new Map<string, Member[]>();
  /** By rollout_id + attempt_id: the one member that has it, or every member once it repeats. */
  private readonly seen = new Map<string, Member | Member[]>();
  /** Policy, environment and sampling strings repeat across a run: one copy each. */
  private readonly shared = new Map<string, string>();

  constructor(
    private readonly options: CheckOptions = {},
    private readonly sink?: LintSink,
  ) {}

  add(result: LineResult): void {
    if (result.kind === 'rollout') {
      this.addRollout(result.value);
      return;
    }
    this.parseErrorCount++;
    if (this.sink) this.sink.parseError(result.value);
    else this.parseErrors.push(result.value);
  }

  addRollout(loaded: LoadedRollout): RolloutSummary {
    const summary = summarizeRollout(loaded, this.options);
    this.addSummary(summary, rolloutFacts(loaded.record));
    return summary;
  }

  /**
   * Adds a rollout summarised elsewhere (`summarizeRollout` and `rolloutFacts` with this session's
   * options, e.g. in a parse worker): the cross-rollout checks need no more than these.
   */
  addSummary(summary: RolloutSummary, facts: RolloutFacts): void {
    const index = this.count++;
    for (const f of summary.findings) {
      if (f.severity === 'error') this.errors++;
      else this.warnings++;
    }
    if (this.sink) this.sink.rollout(summary);
    else this.rollouts.push(summary);
    const member: Member = {
      policy: this.share(facts.policy),
      env: this.share(facts.env),
      sampling: this.share(facts.sampling),
      index,
      file: summary.file,
      line: summary.line,
      rolloutId: summary.rollout_id,
      attemptId: summary.attempt_id,
      inSignal: summary.in_signal,
      unknown: summary.termination === 'unknown',
      reward: summary.reward,
    };
    const key = JSON.stringify([summary.rollout_id, summary.attempt_id]);
    const same = this.seen.get(key);
    if (same === undefined) this.seen.set(key, member);
    else if (Array.isArray(same)) same.push(member);
    else this.seen.set(key, [same, member]);
    const group = this.members.get(summary.group_id) ?? [];
    if (group.length === 0) this.members.set(summary.group_id, group);
    group.push(member);
  }

  private share<T extends string | undefined>(s: T): T {
    if (s === undefined) return s;
    const kept = this.shared.get(s);
    if (kept !== undefined) return kept as T;
    this.shared.set(s, s);
    return s;
  }

  /** Counts lines read (blank ones included); call once per file with the parser's line count. */
  addLineCount(n: number): void {
    this.lines += n;
  }

  /**
   * Each rollout's advantage within its group, index-aligned with `report().rollouts`; null for a rollout
   * that is not counted (excluded, or no numeric reward). The views use it to switch GRPO / Dr. GRPO.
   */
  advantages(normalizeStd = true): (number | null)[] {
    const out: (number | null)[] = new Array(this.count).fill(null);
    for (const members of this.members.values()) {
      const { perMember } = groupAdvantages(members, normalizeStd);
      members.forEach((m, i) => {
        out[m.index] = perMember[i] ?? null;
      });
    }
    return out;
  }

  /** Group statistics and findings alone: what a view needs to switch GRPO / Dr. GRPO without a whole report. */
  groups(normalizeStd = true): GroupSummary[] {
    return [...this.members].map(([id, members]) => groupSummary(id, members, normalizeStd));
  }

  /** The cross-rollout checks (duplicates, groups) and the summary's counts; what a sink's reader adds to its lines. */
  totals(normalizeStd = true): LintTotals {
    const duplicates = new Map<number, Finding>();
    for (const same of this.seen.values()) {
      if (!Array.isArray(same)) continue;
      for (const m of same) {
        const others = same.filter((o) => o !== m).map((o) => `${o.file}:${o.line}`);
        const message = `rollout "${m.rolloutId}" attempt ${JSON.stringify(m.attemptId)} also appears at ${others.join(', ')}`;
        duplicates.set(m.index, finding('E_DUPLICATE_ROLLOUT', message));
      }
    }
    const groups = this.groups(normalizeStd);
    let errors = this.parseErrorCount + this.errors;
    let warnings = this.warnings;
    for (const f of [...duplicates.values(), ...groups.flatMap((g) => g.findings)]) {
      if (f.severity === 'error') errors++;
      else warnings++;
    }
    return { summary: { lines: this.lines, rollouts: this.count, errors, warnings }, groups, duplicates };
  }

  /** The report of §8 (a session without a sink). `normalizeStd` false gives Dr. GRPO advantages. */
  report(normalizeStd = true): LintReport {
    if (this.sink) throw new Error('this lint session handed its lines to a sink: read them there, with totals()');
    const { summary, groups, duplicates } = this.totals(normalizeStd);
    return {
      summary,
      parse_errors: [...this.parseErrors],
      rollouts: this.rollouts.map((r, i) => withDuplicate(r, duplicates.get(i))),
      groups,
    };
  }
}

/** A rollout's summary as the report lists it: its E_DUPLICATE_ROLLOUT, if any, first among its findings. */
function withDuplicate(summary: RolloutSummary, duplicate: Finding | undefined): RolloutSummary {
  return { ...summary, findings: duplicate ? [duplicate, ...summary.findings] : [...summary.findings] };
}

/** Advantage keys: rollout_id, with `#attempt_id` where the group holds two attempts of one rollout. */
function advantageKeys(members: readonly GroupMember[]): string[] {
  const count = new Map<string, number>();
  for (const m of members) count.set(m.rolloutId, (count.get(m.rolloutId) ?? 0) + 1);
  const used = new Set<string>();
  return members.map((m) => {
    let key = (count.get(m.rolloutId) ?? 0) > 1 ? `${m.rolloutId}#${m.attemptId ?? ''}` : m.rolloutId;
    // Only an exact duplicate (already E_DUPLICATE_ROLLOUT) collides; keep both rather than overwrite.
    for (let k = 2; used.has(key); k++) key = `${m.rolloutId}#${m.attemptId ?? ''}#${k}`;
    used.add(key);
    return key;
  });
}

/** One group's statistics and findings (§6), over its members in the order they were read. */
export function groupSummary(group_id: string, members: readonly GroupMember[], normalizeStd: boolean): GroupSummary {
  const keys = advantageKeys(members);
  const { stats, perMember, rewards } = groupAdvantages(members, normalizeStd);
  // Keyed by rollout id, which is untrusted text: a Map, then own properties (fromEntries), so an id
  // like `__proto__` or `constructor` is a key like any other, never the object's prototype.
  const byKey = new Map<string, number>();
  perMember.forEach((a, i) => {
    if (a !== null) byKey.set(keys[i] ?? '', a);
  });
  const advantages: Record<string, number> = Object.fromEntries(byKey);
  const findings: Finding[] = [];
  const mixed = (values: (string | undefined)[]) => new Set(values.map((v) => v ?? '(none)'));
  const policies = mixed(members.map((m) => m.policy));
  if (policies.size > 1) findings.push(finding('W_GROUP_MIXED_POLICY', `policy versions ${[...policies].join(', ')} in one group`));
  const samplings = mixed(members.map((m) => m.sampling));
  if (samplings.size > 1)
    findings.push(finding('W_GROUP_MIXED_SAMPLING', `${samplings.size} different sampling configs (seed aside) in one group`));
  const envs = mixed(members.map((m) => m.env));
  if (envs.size > 1) findings.push(finding('W_GROUP_MIXED_ENV', `environment versions ${[...envs].join(', ')} in one group`));
  if (stats.zeroVariance) {
    findings.push(finding('W_ZERO_VARIANCE_GROUP', `all ${stats.n} rollouts in the signal have reward ${rewards[0]}; advantages are 0`));
  }
  return {
    group_id,
    rollouts: members.length,
    in_signal: members.filter((m) => m.inSignal).length,
    unknown_termination: members.filter((m) => m.unknown).length,
    mean: stats.mean,
    std: stats.std,
    advantages,
    findings,
  };
}
