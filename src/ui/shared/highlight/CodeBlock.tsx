import type { CSSProperties } from 'react';
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
  return (
    <pre className={className ? `code-block ${className}` : 'code-block'} data-lang={lines ? (lang ?? undefined) : undefined}>
      {lines
        ? lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their position
            <span key={i} className="code-block__line">
              {line.map((t, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: tokens have no identity but their position
                <span key={j} style={tokenStyle(t)}>
                  {t.content}
                </span>
              ))}
              {i < lines.length - 1 ? '\n' : null}
            </span>
          ))
        : code}
    </pre>
  );
}
