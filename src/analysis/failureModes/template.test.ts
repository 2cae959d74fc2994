import { describe, expect, it } from 'vitest';
import { MAX_TEMPLATES, maskLine, TemplateMiner } from './template';

describe('maskLine', () => {
  it('masks numbers, paths, hex, ids and quoted values', () => {
    expect(maskLine('find 0: over budget (exceeded its budget of 10000 line events)')).toBe(
      'find <n>: over budget (exceeded its budget of <n> line events)',
    );
    expect(maskLine('error: old text not found in src/search.py')).toBe('error: old text not found in <path>');
    expect(maskLine('error: old text not found in insert.py')).toBe('error: old text not found in <path>');
    expect(maskLine('segfault at 0x7ffd3a2c, digest 9f86d081884c7d65')).toBe('segfault at <hex>, digest <hex>');
    expect(maskLine('error: unknown tool "run_shell"; rejected')).toBe('error: unknown tool <str>; rejected');
    expect(maskLine('rollout r-s0003-g4-04 took 1.25 s')).toBe('rollout <id> took <n> s');
    expect(maskLine("it can't find 'x.y'")).toBe("it can't find <str>");
  });
});

describe('TemplateMiner', () => {
  it('gives two lines differing only in values one template', () => {
    const miner = new TemplateMiner();
    const a = miner.add('Timeout after 30 s waiting for /tmp/sandbox-12/lock (pid 4411)');
    const b = miner.add('Timeout after 45 s waiting for /var/run/x.lock (pid 17)');
    expect(b.id).toBe(a.id);
    expect(miner.text(a.id)).toBe('Timeout after <n> s waiting for <path> (pid <n>)');
    expect(miner.size).toBe(1);
  });

  it('generalises a template where same-shaped lines differ in a word, past the similarity threshold', () => {
    const miner = new TemplateMiner();
    const a = miner.add('connection to db-primary refused by peer');
    const b = miner.add('connection to cache refused by peer');
    expect(b.id).toBe(a.id);
    expect(miner.text(a.id)).toBe('connection to <*> refused by peer');
  });

  it('keeps different messages apart', () => {
    const miner = new TemplateMiner();
    const ids = [
      'find 0: over budget (exceeded its budget of 10000 line events)',
      'error: old text not found in insert.py',
      'error: unknown tool "run_shell"; the harness rejected the call',
      'infrastructure failure: test process killed by SIGKILL',
      'error: permission denied while writing the patch to disk',
    ].map((l) => miner.add(l).id);
    expect(new Set(ids).size).toBe(5);
    // Same length and first tokens, but most positions differ: below the threshold.
    const x = miner.add('error: disk quota exceeded while writing the log');
    const y = miner.add('error: model returned an empty completion to the harness');
    expect(x.id).not.toBe(y.id);
  });

  it('is deterministic', () => {
    const lines = ['a 1 b', 'a 2 b', 'c d e f', 'c d x f', 'a b'];
    const run = () => {
      const m = new TemplateMiner();
      return lines.map((l) => m.add(l).id).concat(lines.map((_, i) => m.text(i).length));
    };
    expect(run()).toEqual(run());
  });

  it('holds at most MAX_TEMPLATES templates', () => {
    const miner = new TemplateMiner();
    for (let i = 0; i < MAX_TEMPLATES + 50; i++) miner.add(`w${i.toString(36).replace(/\d/g, 'q')}x alpha beta${'z'.repeat(i % 7)}`);
    expect(miner.size).toBeLessThanOrEqual(MAX_TEMPLATES);
  });
});
