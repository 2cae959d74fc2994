import { parseJsonText } from '../json';
import type { ParseError } from '../jsonl';
import type { ReadFile } from './layouts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BOM = '\uFEFF';

/**
 * One JSON file of a trace directory, parsed as a trajectory file's document is (strict UTF-8, a leading
 * byte-order mark dropped, Python's NaN and ±Infinity read as strings, at most 256 levels deep), or the
 * one error that says why not, at its line 1, under the name `file`.
 */
export async function readJson(read: ReadFile, path: string, file: string): Promise<{ value: unknown } | { error: ParseError }> {
  const got = await read(path);
  const fail = (message: string) => ({ error: { file, line: 1, code: 'E_PARSE' as const, message } });
  if ('error' in got) return fail(got.error);
  let text: string;
  try {
    text = utf8.decode(got.bytes);
  } catch {
    return fail('not UTF-8 text');
  }
  if (text.startsWith(BOM)) text = text.slice(1);
  try {
    return { value: parseJsonText(text) };
  } catch (e) {
    return fail(`not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}
