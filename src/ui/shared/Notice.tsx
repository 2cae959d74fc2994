import type { ReactNode } from 'react';
import './shared.css';

/** A one-line message above the content; `onDismiss` adds a close button. */
export function Notice({ tone = 'info', children, onDismiss }: { tone?: 'info' | 'warning'; children: ReactNode; onDismiss?: () => void }) {
  return (
    <div className={`notice notice--${tone}`} role={tone === 'warning' ? 'alert' : 'status'}>
      <div className="notice__text">{children}</div>
      {onDismiss && (
        <button type="button" className="notice__close" aria-label="Dismiss" onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  );
}
