import { type CSSProperties, useMemo } from 'react';
import { MarkedPieces } from '../Marked';
import { cutAtMarks, markRanges, useSearchMarks } from '../marks';
import type { CodeToken } from './highlighter';
import type { HighlightLang } from './languages';
import { useHighlighted } from './useHighlighted';
import './highlight.css';

function tokenStyle(t: CodeToken): CSSProperties | undefined {
  if (!t.color && !t.fontStyle) return undefined;
  return {
    color: t.color,
    fontStyle: t.fontStyle & 1 ? 'italic' : undefined,
    fontWeight: t.fontStyle & 2 ? 600 : undefined,
    textDecoration: t.fontStyle & 4 ? 'underline' : undefined,
  };
}

interface Props {
  code: string;
  lang: HighlightLang | null;
  className?: string;
}

/**
 * Code as text: plain at once, then coloured by shiki when its grammar has loaded. Every token is a
 * text node in a span, never parsed HTML, so file content shows literally whatever it holds.
 */
export function CodeBlock({ code, lang, className }: Props) {
  const lines = useHighlighted(code, lang);
  const regexes = useSearchMarks();
  const ranges = useMemo(() => (regexes.length === 0 ? [] : markRanges(code, regexes)), [code, regexes]);
  // Each line's offset in `code` (lines join with '\n'), so a search's marks cut through the colours.
  const starts = useMemo(() => {
    let at = 0;
    return (lines ?? []).map((line) => {
      const start = at;
      for (const t of line) at += t.content.length;
      at += 1;
      return start;
    });
  }, [lines]);
  return (
    <pre className={className ? `code-block ${className}` : 'code-block'} data-lang={lines ? (lang ?? undefined) : undefined}>
      {lines ? (
        lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their position
          <span key={i} className="code-block__line">
            {line.map((t, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: tokens have no identity but their position
              <span key={j} style={tokenStyle(t)}>
                {ranges.length === 0 ? (
                  t.content
                ) : (
                  <MarkedPieces pieces={cutAtMarks(t.content, tokenStart(line, j, starts[i] ?? 0), ranges)} />
                )}
              </span>
            ))}
            {i < lines.length - 1 ? '\n' : null}
          </span>
        ))
      ) : ranges.length === 0 ? (
        code
      ) : (
        <MarkedPieces pieces={cutAtMarks(code, 0, ranges)} />
      )}
    </pre>
  );
}

/** Where token `j` of a line starts in the whole text (only asked while a search marks the text). */
function tokenStart(line: readonly CodeToken[], j: number, lineStart: number): number {
  let at = lineStart;
  for (let k = 0; k < j; k++) at += line[k]?.content.length ?? 0;
  return at;
}
