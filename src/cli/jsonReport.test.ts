import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { writeJsonStreamed } from './jsonReport';

describe('the streamed JSON report', () => {
  it('is byte for byte JSON.stringify(report, null, 2)', async () => {
    const { Writable } = await import('node:stream');
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
});
