import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { LintSession } from '../../analysis';
import { indexRowFrom } from '../../format/runIndex/columns';
import { readJsonlFile } from '../readFile';
import { buildIndex } from './build';

/*
 * The index over published files of ../shared/real-data, read in place: the rows are exactly the rollouts
 * lint reports (adapters included), and every span reads back as its source: a line's JSON, or the whole
 * file for a multi-line document or an archive.
 */
const REAL = resolve(import.meta.dirname, '../../../../shared/real-data');
const HAS_REAL = existsSync(REAL);
if (!HAS_REAL) console.info(`../shared/real-data is absent (${REAL}): real-file index tests skipped`);

const FILES = [
  'verl-rollout-sdpo/1.jsonl',
  'atropos-scored-groups/objreward.jsonl',
  'swe-agent-pydicom/pydicom__pydicom-1458.traj',
  'inspect-ai-eval/2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval',
  'verifiers-wordle_qwen_qwen3-30b-a3b-thinking-2507/results.jsonl',
];

describe.skipIf(!HAS_REAL)('the run index over real files', () => {
  it('has one row per rollout lint reports, each with a span that reads back', async () => {
    const out = mkdtempSync(join(tmpdir(), 'trajscope-real-index-'));
    const { manifest } = await buildIndex({ inputs: FILES.map((f) => join(REAL, f)), base: REAL, outDir: out, jobs: 1 });
    for (const name of FILES) {
      const session = new LintSession();
      await readJsonlFile(join(REAL, name), (r) => session.add(r), {}, { name });
      const lint = session.report();
      const entry = manifest.files.find((f) => f.file === name);
      expect(entry, name).toBeDefined();
      const rows = [];
      for (const s of entry?.shards ?? []) {
        const b = readFileSync(join(out, s.path));
        rows.push(
          ...(await parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer })).map(
            indexRowFrom,
          ),
        );
      }
      expect(lint.rollouts.length, name).toBeGreaterThan(0);
      expect(rows.map((r) => [r.line, r.rollout_id, r.group_id, r.termination, r.in_signal, r.reward])).toEqual(
        lint.rollouts.map((r) => [r.line, r.rollout_id, r.group_id, r.termination, r.in_signal, r.reward]),
      );
      expect(entry?.parse_errors.length).toBe(lint.parse_errors.length);
      const bytes = readFileSync(join(REAL, name));
      for (const r of rows) {
        if (name.endsWith('.jsonl')) {
          expect(() => JSON.parse(bytes.subarray(r.offset, r.offset + r.length).toString('utf8')), `${name}:${r.line}`).not.toThrow();
        } else expect([r.offset, r.length]).toEqual([0, bytes.length]);
      }
      expect(entry?.format).not.toBe('v1');
    }
  });
});
