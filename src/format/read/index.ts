/*
 * The one byte reader under every parser (issue 30): a byte source in (a File's or a fetch's stream, or a
 * node file turned into one by src/cli/readFile.ts), its content out, gzip told by its magic bytes and
 * decompressed on Web Streams, a broken gzip stream recovered from once; beside it, each line's byte span
 * (the run index's offsets) and the check windows that tell a grown file from a rewritten one. Lines are
 * split by jsonl.ts's LineSplitter; a zip archive is told by the line parser's own sniff (sniffParser.ts).
 */
export type { Bytes, Gunzip } from './gzip';
export { decompressIfGzip } from './gzip';
export { LineSpans } from './lineSpans';
export { chunksOf, readContent } from './readContent';
export type { Sha256, WindowsDigest } from './windows';
export { checkWindows, StreamWindows, windowsDigest } from './windows';
