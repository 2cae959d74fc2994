import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { indexWorkerEntry } from './workerBundle';

const CACHE = fileURLToPath(new URL('../../../node_modules/.cache/trajscope/', import.meta.url));

describe('the index worker bundle', () => {
  it('is built once and reused while its sources are unchanged; a changed source builds it again', async () => {
    const first = await indexWorkerEntry();
    expect(first.args).toEqual([]);
    expect(existsSync(first.script)).toBe(true);
    const record = readdirSync(CACHE)
      .filter((n) => n.endsWith('.json'))
      .map((n) => join(CACHE, n))
      .find((p) => JSON.parse(readFileSync(p, 'utf8')).bundle === first.script.split('/').pop());
    expect(record).toBeDefined();
    const inputs: [string, number, number][] = JSON.parse(readFileSync(record ?? '', 'utf8')).inputs;
    expect(inputs.map(([p]) => p)).toContain('src/cli/runIndex/worker.ts');
    // Unchanged: the same file, and the record is not rewritten.
    const before = readFileSync(record ?? '', 'utf8');
    expect(await indexWorkerEntry()).toEqual(first);
    expect(readFileSync(record ?? '', 'utf8')).toBe(before);
    // As if worker.ts had changed since (its recorded mtime is not its own): built again and recorded anew.
    writeFileSync(
      record ?? '',
      JSON.stringify({
        bundle: first.script.split('/').pop(),
        inputs: inputs.map(([p, s, m]) => [p, s, p.endsWith('worker.ts') ? m - 1 : m]),
      }),
    );
    expect(await indexWorkerEntry()).toEqual(first);
    expect(JSON.parse(readFileSync(record ?? '', 'utf8')).inputs).toEqual(inputs);
  });
});
