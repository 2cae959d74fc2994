import { createLineParser, type FieldMapping, type LineResult } from '../../format';

/** Records the preview shows. */
const PREVIEW_RECORDS = 5;

/**
 * The first records a mapping makes of a file's head, as the load would make them (same parser). A head
 * cut inside a line drops that line; a document longer than the head cannot be previewed whole.
 */
export function previewMapping(name: string, head: Uint8Array, mapping: FieldMapping, complete: boolean): LineResult[] {
  const parser = createLineParser(name, { mapping });
  let end = head.length;
  if (!complete) {
    const lastNewline = head.lastIndexOf(0x0a);
    end = lastNewline === -1 ? head.length : lastNewline + 1;
  }
  const results = [...parser.push(head.subarray(0, end)), ...parser.end()];
  return results.slice(0, PREVIEW_RECORDS);
}
