import { type ReadOptions, reviewKey } from '../../format';
import { rolloutKeys } from '../../load/rolloutKeys';
import { readJsonlFile } from '../readFile';
import type { Input } from '../runIndex/inputs';

/** A named input that could not be read, or is of no format Trajscope reads (exit 2, as lint). */
export interface NotRead {
  file: string;
  message: string;
}

/** What is said of an input that could not be opened or read. */
export function notReadOf(file: string, e: unknown): NotRead {
  const err = e as NodeJS.ErrnoException;
  return { file, message: `cannot read it: ${err.code === 'ENOENT' ? 'no such file' : err.message}` };
}

/**
 * Each rollout's `rollout=` key, as the app forms it over the same files (`rolloutKeys`): its ids, plus
 * `@file:line` when another rollout shares them. Whether a key is shared is known only once every file is
 * read, and the first exported line needs it, so the export reads its inputs once for the keys before it
 * writes anything. Held: one key per rollout, by file in reading order (what lint holds per rollout is more).
 */
export class RolloutKeyPass {
  private readonly keys = new Map<string, string[]>();

  private constructor(readonly notRead: NotRead[]) {}

  static async read(inputs: readonly Input[], read: ReadOptions): Promise<RolloutKeyPass> {
    const identities: { file: string; line: number; rollout_id: string; attempt_id: string | null }[] = [];
    const notRead: NotRead[] = [];
    for (const input of inputs) {
      try {
        const { unsupported } = await readJsonlFile(
          input.path,
          (r) => {
            if (r.kind === 'rollout')
              identities.push({
                file: input.file,
                line: r.value.line,
                rollout_id: r.value.record.rollout_id,
                attempt_id: r.value.record.attempt_id ?? null,
              });
          },
          read,
          { name: input.file },
        );
        if (unsupported !== null) notRead.push({ file: input.file, message: unsupported });
      } catch (e) {
        notRead.push(notReadOf(input.file, e));
      }
    }
    const pass = new RolloutKeyPass(notRead);
    const keys = rolloutKeys(identities);
    identities.forEach((id, i) => {
      const list = pass.keys.get(id.file);
      if (list) list.push(keys[i] ?? '');
      else pass.keys.set(id.file, [keys[i] ?? '']);
    });
    return pass;
  }

  /** Rollouts the key pass read in this file: one appended since (a live run's file) is not exported. */
  count(file: string): number {
    return this.keys.get(file)?.length ?? 0;
  }

  /**
   * The key of the file's `n`th rollout (0-based), read again: an error when it is not the rollout the key
   * pass read there (the file was rewritten between the two reads).
   */
  keyOf(file: string, n: number, rollout: { rollout_id: string; attempt_id?: string | null | undefined }, line: number): string {
    const key = this.keys.get(file)?.[n];
    // A duplicate's key is its ids' key plus `@file:line`.
    const base = reviewKey({ rollout_id: rollout.rollout_id, attempt_id: rollout.attempt_id ?? null });
    if (key === undefined || (key !== base && !key.startsWith(`${base}@`)))
      throw new Error(`${file} changed while it was exported (line ${line} is not the rollout read there before)`);
    return key;
  }
}
