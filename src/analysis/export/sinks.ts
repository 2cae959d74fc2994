import type { Rollout } from '../../format';
import type { TokenText } from '../rewrite';
import type { RolloutSummary } from '../types';
import { CHAT_SKIP_WORDS, type ChatMessage, conversationOf } from './chat';
import { GroupPairs, PAIR_SKIP_WORDS, splitPrompt } from './pairs';

/*
 * The JSON Lines formats of an export (`trajscope export --as v1|sft|dpo`, and the page's Export button):
 * what each chosen rollout becomes, written to a `LineOut`. The CLI's output is a file, the page's a list
 * of strings for a Blob; both go through these sinks and `jsonLine`, so the same selection gives the same bytes.
 */

/** Where an exported record came from and the query that chose it (`provenance` on every record). */
interface Provenance {
  file: string;
  line: number;
  rollout_key: string;
  where: string;
}

/** A rollout the query chose, handed to the format's sink. */
export interface Chosen {
  record: Rollout;
  /**
   * Its summary (in the signal, reward, group), which sft and dpo read; null where none is read (v1 and parquet
   * of every rollout: the CLI then skips each rollout's lint).
   */
  summary: RolloutSummary | null;
  provenance: Provenance;
}

/** A sink that reads summaries was handed none: a bug of the caller, not of the data. */
function summaryOf(summary: RolloutSummary | null, sink: string): RolloutSummary {
  if (summary === null) throw new Error(`the ${sink} export reads each rollout's summary, and was given none`);
  return summary;
}

/** One line of JSON Lines: every export line is spelled by this. */
export const jsonLine = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** Where the lines go. `lines` counts those written. */
export interface LineOut {
  readonly lines: number;
  write(value: unknown): void;
  close(): void;
}

/** A Blob is built from a list of parts; joining them into one string first would hold the text twice. */
const TEXT_CHUNK_CHARS = 1 << 20;

/** Lines held as text, in parts of about TEXT_CHUNK_CHARS: the page's export, handed to a Blob at the end. */
export class TextLines implements LineOut {
  readonly chunks: string[] = [];
  private buffer = '';
  lines = 0;

  write(value: unknown): void {
    this.buffer += jsonLine(value);
    this.lines++;
    if (this.buffer.length >= TEXT_CHUNK_CHARS) this.flush();
  }

  private flush(): void {
    if (this.buffer.length > 0) this.chunks.push(this.buffer);
    this.buffer = '';
  }

  close(): void {
    this.flush();
  }
}

type Noun = 'rollout' | 'group';

/** What was not written, by reason: "8 rollouts excluded (...)", "40 groups with no reward gap". */
export class Skips {
  readonly counts = new Map<string, { noun: Noun; why: string; n: number }>();

  add(noun: Noun, why: string): void {
    const key = `${noun} ${why}`;
    const at = this.counts.get(key);
    if (at) at.n++;
    else this.counts.set(key, { noun, why, n: 1 });
  }
}

/** One output format: takes the chosen rollouts in reading order, writes what it makes of them. */
export interface ExportSink<C extends Chosen = Chosen> {
  /** What one written line or row is ("pair", "conversation" ...), for the summary. */
  readonly unit: string;
  readonly skips: Skips;
  written(): number;
  take(c: C): void;
  /**
   * Writes what is held (dpo's pairs), a line per yield, then closes the output: a page runs it in slices,
   * `closeSink` at once.
   */
  closing(): Generator<void, void, void>;
}

/** Runs a sink's `closing` to its end. */
export function closeSink(sink: Pick<ExportSink, 'closing'>): void {
  const steps = sink.closing();
  while (!steps.next().done);
}

/** The token text a record is decoded with (`cliTokenText` in node, the page's token table in a browser). */
export type TokenTextOf = (record: Rollout) => TokenText | null;

const EXCLUDED = 'excluded (not in the policy signal)';

/** Closes the output; a sink that holds nothing has nothing else to do. */
// biome-ignore lint/correctness/useYield: a sink with nothing held closes in one step.
function* closeOnly(out: LineOut): Generator<void, void, void> {
  out.close();
}

/** `v1`: the chosen records as they were read, each with its provenance. */
export function v1Sink(out: LineOut): ExportSink {
  return {
    unit: 'record',
    skips: new Skips(),
    written: () => out.lines,
    take: ({ record, provenance }) => out.write({ ...record, provenance }),
    closing: () => closeOnly(out),
  };
}

/** In the signal and rewarded: what `sft` writes a conversation for (the page counts these before it runs). */
export const sftCandidate = (s: Pick<RolloutSummary, 'in_signal' | 'reward'>): boolean => s.in_signal && s.reward !== null && s.reward > 0;

/**
 * `sft`: the conversation of each rewarded rollout in the policy signal. Rewarded means a reward above 0,
 * not the group's best: it is known from the rollout alone, so the export streams; every passing rollout
 * of a pass/fail contract is kept (a group where all pass gives all its conversations, as rejection
 * sampling does); and the group's best of all-failing samples is not taught. `--where 'reward>=1'` narrows it.
 */
export function sftSink(out: LineOut, tokenText: TokenTextOf): ExportSink {
  const skips = new Skips();
  return {
    unit: 'conversation',
    skips,
    written: () => out.lines,
    take: ({ record, summary: given, provenance }) => {
      const summary = summaryOf(given, 'sft');
      if (!summary.in_signal) return skips.add('rollout', EXCLUDED);
      if (!sftCandidate(summary)) return skips.add('rollout', 'not rewarded (reward ≤ 0 or none)');
      const conversation = conversationOf(record, tokenText(record));
      if ('skipped' in conversation) return skips.add('rollout', CHAT_SKIP_WORDS[conversation.skipped]);
      out.write({ messages: conversation.messages, provenance });
    },
    closing: () => closeOnly(out),
  };
}

interface PairSide {
  messages: ChatMessage[];
  at: Omit<Provenance, 'where'>;
}

const sameMessage = (a: ChatMessage, b: ChatMessage) => JSON.stringify(a) === JSON.stringify(b);

/**
 * `dpo`: per GRPO group, its best and worst rollout among the chosen ones in the signal with a reward,
 * paired when their rewards differ (GroupPairs). Only those two conversations are held per group until
 * the end, when the pairs are written in the order the groups were first read.
 */
export function dpoSink(out: LineOut, where: string, tokenText: TokenTextOf): ExportSink {
  const skips = new Skips();
  const groups = new GroupPairs<PairSide>();
  function* closing(): Generator<void, void, void> {
    try {
      for (const p of groups.pairs()) {
        if ('skipped' in p) {
          skips.add('group', PAIR_SKIP_WORDS[p.skipped]);
          continue;
        }
        const split = splitPrompt(p.chosen.item.messages, p.rejected.item.messages, sameMessage, (m) => m.role === 'assistant');
        if (split === null) {
          skips.add('group', 'whose best and worst share no prompt or do not differ');
          continue;
        }
        out.write({
          ...split,
          reward_chosen: p.chosen.reward,
          reward_rejected: p.rejected.reward,
          group_id: p.group,
          task_id: p.chosen.task,
          policy_version: p.chosen.policy,
          provenance: { where, chosen: p.chosen.item.at, rejected: p.rejected.item.at },
        });
        yield;
      }
    } finally {
      out.close();
    }
  }
  return {
    unit: 'pair',
    skips,
    written: () => out.lines,
    take: ({ record, summary: given, provenance }) => {
      const summary = summaryOf(given, 'dpo');
      if (!summary.in_signal) return skips.add('rollout', EXCLUDED);
      if (summary.reward === null) return skips.add('rollout', 'with no reward');
      const conversation = conversationOf(record, tokenText(record));
      if ('skipped' in conversation) return skips.add('rollout', CHAT_SKIP_WORDS[conversation.skipped]);
      const { where: _, ...at } = provenance;
      groups.add({
        group: summary.group_id,
        task: summary.task_id,
        policy: record.policy_version ?? null,
        reward: summary.reward,
        item: { messages: conversation.messages, at },
      });
    },
    closing,
  };
}
