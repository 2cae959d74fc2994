import { PASS_CHUNK } from './passes';

/*
 * A huge rollout's steps held as their JSON chunks and parsed when read (docs/adr/0018). A million
 * parsed steps are about five million live objects, and V8's collector pauses the page 40-200 ms at a
 * time to copy and mark them; held as the compact record's UTF-8 chunks they are bytes outside the heap,
 * and the steps a view reads are a few parsed chunks that die young.
 *
 * The array is a read-only Proxy whose target is an empty array of the right length, so every reader of
 * `record.steps` (indexing, `length`, `Array.isArray`, iteration, `.map`, JSON.stringify) works
 * unchanged; a pass over every step reads it a chunk at a time through `chunksOf` instead of through the
 * Proxy's trap once per index.
 */

interface Source<T> {
  length: number;
  per: number;
  parse: (chunk: number) => T[];
  /** Recently parsed chunks, least recently read first (a Map keeps insertion order). */
  cache: Map<number, T[]>;
  keep: number;
  /** The last chunk read: most reads land in the chunk of the read before. */
  last: number;
  lastItems: T[] | null;
}

const sources = new WeakMap<object, Source<unknown>>();

/** Chunks kept parsed: a page of the Steps view or of Four roles reads one or two. */
export const CHUNKS_KEPT = 4;

function chunkOf<T>(s: Source<T>, chunk: number): T[] {
  if (chunk === s.last && s.lastItems) return s.lastItems;
  let items = s.cache.get(chunk);
  if (items) s.cache.delete(chunk);
  else {
    items = s.parse(chunk);
    if (s.cache.size >= s.keep) s.cache.delete(s.cache.keys().next().value as number);
  }
  s.cache.set(chunk, items);
  s.last = chunk;
  s.lastItems = items;
  return items;
}

/** The index a property key names, or -1 (keys reach a Proxy as strings: "12", never 12). */
function indexOf(key: string | symbol, length: number): number {
  if (typeof key !== 'string') return -1;
  const i = Number(key);
  return Number.isInteger(i) && i >= 0 && i < length && String(i) === key ? i : -1;
}

function readOnly(): never {
  throw new TypeError('a chunked array is read-only');
}

/**
 * A read-only array of `length` items, `per` to a chunk, chunk `i` being `parse(i)` (which must return
 * `per` items, fewer for the last chunk). The last `keep` chunks read stay parsed; an item read again
 * after its chunk was dropped is an equal, new object.
 */
export function chunkedArray<T>(length: number, per: number, parse: (chunk: number) => T[], keep = CHUNKS_KEPT): readonly T[] {
  const target: T[] = [];
  target.length = length;
  const s: Source<T> = { length, per, parse, cache: new Map(), keep: Math.max(1, keep), last: -1, lastItems: null };
  const item = (i: number): T => chunkOf(s, Math.floor(i / per))[i % per] as T;
  const proxy = new Proxy(target, {
    get(t, key, receiver) {
      const i = indexOf(key, length);
      return i < 0 ? Reflect.get(t, key, receiver) : item(i);
    },
    has(t, key) {
      return indexOf(key, length) >= 0 || Reflect.has(t, key);
    },
    getOwnPropertyDescriptor(t, key) {
      const i = indexOf(key, length);
      if (i < 0) return Reflect.getOwnPropertyDescriptor(t, key);
      return { value: item(i), writable: false, enumerable: true, configurable: true };
    },
    ownKeys(t) {
      return [...Array.from({ length }, (_, i) => String(i)), ...Reflect.ownKeys(t)];
    },
    set: readOnly,
    defineProperty: readOnly,
    deleteProperty: readOnly,
    setPrototypeOf: readOnly,
    preventExtensions: readOnly,
  });
  sources.set(proxy, s as Source<unknown>);
  return proxy;
}

/** Whether an array is a `chunkedArray` (its items parsed when read). */
export function isChunked(items: readonly unknown[]): boolean {
  return sources.has(items);
}

/**
 * An array a run at a time, in order: `[from, items]` with `items[0]` being `array[from]`. A chunked
 * array gives its chunks, each parsed once and not kept (a pass over a million steps must not push
 * out the chunks a view is showing); a plain array gives slices of `per`.
 */
export function* chunksOf<T>(items: readonly T[], per = PASS_CHUNK): Generator<[from: number, items: readonly T[]]> {
  const s = sources.get(items) as Source<T> | undefined;
  if (!s) {
    for (let from = 0; from < items.length; from += per) yield [from, items.slice(from, from + per)];
    return;
  }
  const chunks = Math.ceil(s.length / s.per);
  for (let c = 0; c < chunks; c++) yield [c * s.per, s.cache.get(c) ?? s.parse(c)];
}

/**
 * Reads `items[i]` for a walk that goes (mostly) in order: a run at a time from `chunksOf`, so a chunked
 * array's chunks are parsed once each and dropped as the walk leaves them (a walk through the cache would
 * keep the last few alive long enough for the collector to move them to the old generation). An index
 * behind the current run is read from the array itself.
 */
export function cursorOf<T>(items: readonly T[]): (i: number) => T | undefined {
  const runs = chunksOf(items);
  let from = 0;
  let run: readonly T[] = [];
  return (i) => {
    while (i >= from + run.length) {
      const next = runs.next();
      if (next.done) return items[i];
      [from, run] = next.value;
    }
    return i >= from ? run[i - from] : items[i];
  };
}
