/** Where trajectory bytes come from: a local `File` or a URL. Both work in a window and in a worker. */
export type LoadSource = { kind: 'file'; id: string; name: string; file: File } | { kind: 'url'; id: string; name: string; url: string };

/** Thrown for every failure to read a source; `message` is written for the person at the screen. */
export class LoadError extends Error {
  constructor(
    readonly reason: 'not-found' | 'network' | 'http' | 'read' | 'decompress' | 'too-large',
    readonly source: string,
    message: string,
  ) {
    super(message);
    this.name = 'LoadError';
  }
}

/** `name` is what rows and problems show as the file; it defaults to the file's own name. */
export function fileSource(id: string, file: File, name = file.name): LoadSource {
  return { kind: 'file', id, name, file };
}

export function urlSource(id: string, url: string): LoadSource {
  return { kind: 'url', id, name: lastPathSegment(url), url };
}

/** "https://host/a/b/rollouts.jsonl.gz?x=1" -> "rollouts.jsonl.gz": the name findings and problems show. */
function lastPathSegment(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? url;
  const last = path.split('/').filter(Boolean).pop() ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

// File objects have no identity a query key can hold; number each one the first time it is seen, so
// reopening a file (even under the same name) parses it afresh while re-rendering never does.
const fileTokens = new WeakMap<File, number>();
let nextToken = 1;

/** A string that names the exact bytes a source stands for, for query keys. */
export function sourceKey(source: LoadSource): string {
  if (source.kind === 'url') return `url:${source.url}`;
  let token = fileTokens.get(source.file);
  if (token === undefined) {
    token = nextToken++;
    fileTokens.set(source.file, token);
  }
  return `file:${source.id}#${token}`;
}
