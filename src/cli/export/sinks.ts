import {
  CHAT_SKIP_WORDS,
  type ChatMessage,
  conversationOf,
  GroupPairs,
  PAIR_SKIP_WORDS,
  type RolloutSummary,
  splitPrompt,
} from '../../analysis';
import type { LoadedRollout } from '../../format';
import { LineSpans } from '../runIndex/lineSpans';
import { fileNameStep, indexRow, type RowOptions } from '../runIndex/rows';
import { cliTokenText } from '../tokenText';
import { JsonLinesOut } from './output';
import { type ExportRow, ParquetOut } from './parquet';

/** Where an exported record came from and the query that chose it (`provenance` on every record). */
interface Provenance {
  file: string;
  line: number;
  rollout_key: string;
  where: string;
}

/** A rollout the query chose, handed to the format's sink. */
interface Chosen {
  loaded: LoadedRollout;
  summary: RolloutSummary;
  provenance: Provenance;
}

/** What was not written, by reason: "8 rollouts excluded (...)", "40 groups with no reward gap". */
class Skips {
  readonly counts = new Map<string, { noun: 'rollout' | 'group'; why: string; n: number }>();

  add(noun: 'rollout' | 'group', why: string): void {
    const key = `${noun} ${why}`;
    const at = this.counts.get(key);
    if (at) at.n++;
    else this.counts.set(key, { noun, why, n: 1 });
  }
}

/** One output format: takes the chosen rollouts in reading order, writes what it makes of them. */
export interface Sink {
  /** What one written line or row is ("pair", "conversation" ...), for the summary. */
  readonly unit: string;
  readonly skips: Skips;
  written(): number;
  /** A file begins (the reader's per-file hooks); `end` when it is read, with the format it was read as. */
  file?(name: string): { onBytes(chunk: Uint8Array): void; end(format: string | null): void };
  take(c: Chosen): void;
  /** Writes what is held (dpo's pairs) and closes the output; the file is then whole. */
  close(): void;
}

const EXCLUDED = 'excluded (not in the policy signal)';

/** `v1`: the chosen records as they were read, each with its provenance. */
export function v1Sink(path: string): Sink {
  const out = new JsonLinesOut(path);
  return {
    unit: 'record',
    skips: new Skips(),
    written: () => out.lines,
    take: ({ loaded, provenance }) => out.write({ ...loaded.record, provenance }),
    close: () => out.close(),
  };
}

/**
 * `sft`: the conversation of each rewarded rollout in the policy signal. Rewarded means a reward above 0,
 * not the group's best: it is known from the rollout alone, so the export streams; every passing rollout
 * of a pass/fail contract is kept (a group where all pass gives all its conversations, as rejection
 * sampling does); and the group's best of all-failing samples is not taught. `--where 'reward>=1'` narrows it.
 */
export function sftSink(path: string): Sink {
  const out = new JsonLinesOut(path);
  const skips = new Skips();
  return {
    unit: 'conversation',
    skips,
    written: () => out.lines,
    take: ({ loaded, summary, provenance }) => {
      if (!summary.in_signal) return skips.add('rollout', EXCLUDED);
      if (summary.reward === null || !(summary.reward > 0)) return skips.add('rollout', 'not rewarded (reward ≤ 0 or none)');
      const conversation = conversationOf(loaded.record, cliTokenText(loaded.record));
      if ('skipped' in conversation) return skips.add('rollout', CHAT_SKIP_WORDS[conversation.skipped]);
      out.write({ messages: conversation.messages, provenance });
    },
    close: () => out.close(),
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
export function dpoSink(path: string, where: string): Sink {
  const out = new JsonLinesOut(path);
  const skips = new Skips();
  const groups = new GroupPairs<PairSide>();
  return {
    unit: 'pair',
    skips,
    written: () => out.lines,
    take: ({ loaded, summary, provenance }) => {
      if (!summary.in_signal) return skips.add('rollout', EXCLUDED);
      if (summary.reward === null) return skips.add('rollout', 'with no reward');
      const conversation = conversationOf(loaded.record, cliTokenText(loaded.record));
      if ('skipped' in conversation) return skips.add('rollout', CHAT_SKIP_WORDS[conversation.skipped]);
      const { where: _, ...at } = provenance;
      groups.add({
        group: summary.group_id,
        task: summary.task_id,
        policy: loaded.record.policy_version ?? null,
        reward: summary.reward,
        item: { messages: conversation.messages, at },
      });
    },
    close: () => {
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
        }
      } finally {
        out.close();
      }
    },
  };
}

/**
 * `parquet`: the run index's row of each chosen rollout (indexRow, as `trajscope index` writes it), with
 * its key and the query as columns. A file's rows wait for its end, where a rollout that is not one JSON
 * line on its own (a pretty-printed document) gets the whole file as its span, as in the index.
 */
export function parquetSink(path: string, options: RowOptions): Sink {
  const out = new ParquetOut(path);
  let spans = new LineSpans();
  let rows: { row: ExportRow; whole: boolean }[] = [];
  let step: number | null = null;
  return {
    unit: 'row',
    skips: new Skips(),
    written: () => out.rows,
    file: (name) => {
      spans = new LineSpans();
      rows = [];
      step = fileNameStep(name);
      return {
        onBytes: (chunk) => spans.push(chunk),
        end: (format) => {
          spans.end();
          for (const { row, whole } of rows)
            out.write({ ...row, source_format: format ?? 'v1', ...(whole ? { offset: 0, length: spans.bytes } : {}) });
          rows = [];
        },
      };
    },
    take: ({ loaded, provenance }) => {
      const row = indexRow(loaded, spans.span(loaded.line), loaded.file, step, options);
      // The run-wide policy order that numbers a step neither the record nor the file name gives is the
      // index's (it needs the whole run): here such a row has no step.
      const unstepped = row.training_step === null ? { training_step_from: null } : {};
      rows.push({
        row: { ...row, ...unstepped, rollout_key: provenance.rollout_key, where: provenance.where },
        whole: !spans.isJsonLine(loaded.line),
      });
    },
    close: () => out.close(),
  };
}
