import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from './catalog';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'trajscope-catalog-'));
  for (const dir of ['openhands-v0-eval', 'openhands-v1-sdk', 'a/run', 'b/run']) await mkdir(join(root, dir), { recursive: true });
  for (const file of ['openhands-v0-eval/output.jsonl', 'openhands-v1-sdk/output.jsonl', 'a/run/step_0.jsonl', 'b/run/step_0.jsonl'])
    await writeFile(join(root, file), '{}\n');
});

afterAll(() => rm(root, { recursive: true, force: true }));

describe('Catalog names', () => {
  it('tells two files of one name apart by their folders (no false duplicate ids, issue 31)', async () => {
    const catalog = await Catalog.open([join(root, 'openhands-v0-eval/output.jsonl'), join(root, 'openhands-v1-sdk/output.jsonl')]);
    expect((await catalog.list()).map((f) => f.name)).toEqual(['openhands-v0-eval/output.jsonl', 'openhands-v1-sdk/output.jsonl']);
  });

  it('keeps a lone file its base name and two directories of one name their parents', async () => {
    expect((await (await Catalog.open([join(root, 'a/run/step_0.jsonl')])).list()).map((f) => f.name)).toEqual(['step_0.jsonl']);
    const both = await Catalog.open([join(root, 'a/run'), join(root, 'b/run')]);
    expect((await both.list()).map((f) => f.name)).toEqual(['a/run/step_0.jsonl', 'b/run/step_0.jsonl']);
  });
});
