/*
 * A submitted artifact, line by line, classified for display: a unified diff gets +/- colouring and line
 * numbers; anything else (a final answer, a whole file) is shown as plain text. Never parsed into HTML.
 */

type DiffLineKind = 'header' | 'hunk' | 'add' | 'del' | 'context' | 'meta' | 'text';

interface DiffLine {
  kind: DiffLineKind;
  text: string;
  /** Line number in the old file, for deleted and context lines. */
  oldNo: number | null;
  /** Line number in the new file, for added and context lines. */
  newNo: number | null;
}

export interface DiffView {
  isDiff: boolean;
  lines: DiffLine[];
  /** Paths the diff changes (from `+++ b/...`, else `--- a/...`). */
  files: string[];
  added: number;
  removed: number;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function looksLikeDiff(lines: readonly string[]): boolean {
  return lines.some((l, i) => HUNK.test(l) || l.startsWith('diff --git ') || (l.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')));
}

function pathOf(header: string): string | null {
  const p = header.slice(4).split('\t')[0]?.trim() ?? '';
  if (p === '/dev/null' || p === '') return null;
  return p.replace(/^[ab]\//, '');
}

/** Classifies each line of an artifact. A trailing newline does not make an empty last line. */
export function diffLines(artifact: string): DiffView {
  const raw = artifact.split('\n');
  if (raw.length > 0 && raw[raw.length - 1] === '') raw.pop();
  if (!looksLikeDiff(raw)) {
    return { isDiff: false, lines: raw.map((text) => ({ kind: 'text', text, oldNo: null, newNo: null })), files: [], added: 0, removed: 0 };
  }
  const lines: DiffLine[] = [];
  const files: string[] = [];
  let added = 0;
  let removed = 0;
  // Lines left in the current hunk: past them, a `--- a/x` line is the next file's header, not a deletion.
  let oldLeft = 0;
  let newLeft = 0;
  let oldNo = 0;
  let newNo = 0;
  let oldPath: string | null = null;
  for (const text of raw) {
    const inHunk = oldLeft > 0 || newLeft > 0;
    const hunk = HUNK.exec(text);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[3]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      lines.push({ kind: 'hunk', text, oldNo: null, newNo: null });
    } else if (inHunk && text.startsWith('+')) {
      lines.push({ kind: 'add', text, oldNo: null, newNo: newNo++ });
      newLeft--;
      added++;
    } else if (inHunk && text.startsWith('-')) {
      lines.push({ kind: 'del', text, oldNo: oldNo++, newNo: null });
      oldLeft--;
      removed++;
    } else if (inHunk && (text.startsWith(' ') || text === '')) {
      lines.push({ kind: 'context', text, oldNo: oldNo++, newNo: newNo++ });
      oldLeft--;
      newLeft--;
    } else if (text.startsWith('\\')) {
      lines.push({ kind: 'meta', text, oldNo: null, newNo: null });
    } else {
      // A file is named by its new path, or by its old one when it was deleted (`+++ /dev/null`).
      if (text.startsWith('--- ')) oldPath = pathOf(text);
      if (text.startsWith('+++ ')) {
        const path = pathOf(text) ?? oldPath;
        if (path !== null && !files.includes(path)) files.push(path);
      }
      lines.push({ kind: 'header', text, oldNo: null, newNo: null });
    }
  }
  return { isDiff: true, lines, files, added, removed };
}
