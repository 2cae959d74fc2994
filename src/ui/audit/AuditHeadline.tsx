import type { AuditFlag } from './auditFlags';

const MARK = { bad: '✗', warn: '!', good: '✓', none: '–' } as const;

/** The audit's findings as chips at the top, each a link to the section that explains it. */
export function AuditHeadline({ flags }: { flags: readonly AuditFlag[] }) {
  return (
    <ul className="audit-headline" aria-label="Audit findings">
      {flags.map((f) => (
        <li key={`${f.tone}:${f.text}`} className={`audit-flag audit-flag--${f.tone}`}>
          <a
            href={`#${f.target}`}
            onClick={(e) => {
              // The URL is the selection: a fragment must not be added to it.
              e.preventDefault();
              document.getElementById(f.target)?.scrollIntoView({ block: 'start', behavior: 'smooth' });
            }}
          >
            <span aria-hidden="true">{MARK[f.tone]}</span> {f.text}
          </a>
        </li>
      ))}
    </ul>
  );
}
