import type { ServerResponse } from 'node:http';
import { contentClauses, parseQuery, QueryError, RecordScanner, type SearchMatch } from '../../analysis';
import { type FieldMapping, MappingError, parseFieldMapping } from '../../format';
import { contentChunks } from '../readFile';
import type { Catalog } from './catalog';

/*
 * `GET /api/search?q=…&file=<id>&file=<id>&map=…`: scans the served files with the reader and matcher the
 * page's search worker uses (RecordScanner) and streams NDJSON, one object a line:
 *   {"match": SearchMatch}  {"progress": {"bytes", "total", "records"}}  {"done": {"records"}}  {"error": "…"}
 * Only the query's content clauses are run (the page applies the row clauses to its run list). The file
 * names in matches are the names the file list gives, which are the names the page shows. The client
 * cancels by closing the request; the scan stops at the next chunk.
 */

const PROGRESS_EVERY_MS = 200;

export async function serveSearch(url: URL, res: ServerResponse, catalog: Catalog): Promise<void> {
  let clauses: ReturnType<typeof contentClauses>;
  let mapping: FieldMapping | undefined;
  try {
    clauses = contentClauses(parseQuery(url.searchParams.get('q') ?? ''));
    const map = url.searchParams.get('map');
    if (map) mapping = parseFieldMapping(map);
  } catch (e) {
    const message = e instanceof QueryError ? e.message : e instanceof MappingError ? e.problems.join('; ') : String(e);
    res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: message }));
    return;
  }
  const list = await catalog.list();
  const wanted = url.searchParams.getAll('file');
  const files = wanted.length === 0 ? list : list.filter((f) => wanted.includes(f.id));
  res.writeHead(200, { 'Content-Type': 'application/x-ndjson', 'Cache-Control': 'no-store' });
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const send = async (value: unknown) => {
    if (!res.write(`${JSON.stringify(value)}\n`)) await new Promise((resolve) => res.once('drain', resolve));
  };
  const total = files.reduce((n, f) => n + f.size, 0);
  let bytes = 0;
  let records = 0;
  let lastProgress = 0;
  try {
    for (const f of files) {
      const opened = await catalog.open(f.id);
      if (!opened) continue;
      const found: SearchMatch[] = [];
      const scanner = new RecordScanner(f.name, clauses, mapping ? { mapping } : {}, (m) => found.push(m));
      try {
        const stream = opened.handle.createReadStream({ highWaterMark: 1 << 20, autoClose: false });
        stream.on('data', (chunk) => {
          bytes += chunk.length;
        });
        for await (const chunk of contentChunks(stream)) {
          if (closed) return;
          scanner.push(chunk);
          for (const m of found.splice(0)) await send({ match: m });
          if (Date.now() - lastProgress > PROGRESS_EVERY_MS) {
            lastProgress = Date.now();
            await send({ progress: { bytes, total, records: records + scanner.records } });
          }
        }
        scanner.end();
        for (const m of found.splice(0)) await send({ match: m });
        records += scanner.records;
      } finally {
        await opened.handle.close();
      }
    }
    await send({ done: { records } });
  } catch (e) {
    if (!closed) await send({ error: `the search stopped: ${e instanceof Error ? e.message : String(e)}` });
  } finally {
    res.end();
  }
}
