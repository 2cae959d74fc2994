/** The grammars the highlighter loads; anything else is shown as plain text. */
export type HighlightLang = 'python' | 'json' | 'diff';

const BY_EXTENSION: Record<string, HighlightLang> = {
  py: 'python',
  pyi: 'python',
  json: 'json',
  diff: 'diff',
  patch: 'diff',
};

/** The grammar for a file path by its extension, or null when none is loaded for it. */
export function languageForPath(path: string): HighlightLang | null {
  const name = path.split(/[\\/]/).pop() ?? '';
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? null;
}

/** A unified diff: a `diff --git` or `---`/`+++` header, or a hunk header, near the top. */
export function looksLikeDiff(text: string): boolean {
  const head = text.slice(0, 2000);
  return (
    /^diff --git /m.test(head) || (/^--- .*\n\+\+\+ /m.test(head) && /^@@ /m.test(text)) || /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m.test(head)
  );
}
