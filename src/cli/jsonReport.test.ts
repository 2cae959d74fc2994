import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeJsonStreamed } from './jsonReport';
import { SpooledArray } from './spool';

function collector(): { out: Writable; text: () => string } {
  let text = '';
  const out = new Writable({
    write(chunk, _enc, cb) {
      text += chunk;
      cb();
    },
  });
  return { out, text: () => text };
}

describe('the streamed JSON report', () => {
  it('is byte for byte JSON.stringify(report, null, 2)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.array(fc.jsonValue({ maxDepth: 3 })))),
        async (value) => {
          let text = '';
          const out = new Writable({
            write(chunk, _enc, cb) {
              text += chunk;
              cb();
            },
          });
          await writeJsonStreamed(out, value);
          expect(text).toBe(`${JSON.stringify(value, null, 2)}\n`);
        },
      ),
      { seed: 18, numRuns: 80 },
    );
  });

  it('copies a spooled array back as the array itself would be written, edited elements parsed back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trajscope-spool-test-'));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        async (elements, picks) => {
          const spooled = new SpooledArray(join(dir, String(n++)), { editable: true });
          for (const e of elements) spooled.push(e);
          spooled.finish();
          const expected = structuredClone(elements);
          for (const p of elements.length > 0 ? picks : []) {
            const i = p % elements.length;
            // Given the element as read back from the spool, which must be the element pushed.
            spooled.edit(i, (was) => ({ edited: i, was }));
            expected[i] = { edited: i, was: elements[i] ?? {} };
          }
          const { out, text } = collector();
          await writeJsonStreamed(out, { before: 1, items: spooled, after: [] });
          expect(text()).toBe(`${JSON.stringify({ before: 1, items: expected, after: [] }, null, 2)}\n`);
        },
      ),
      { seed: 18, numRuns: 60 },
    );
    rmSync(dir, { recursive: true, force: true });
  });
});
