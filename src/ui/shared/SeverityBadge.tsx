import type { Severity } from '../../analysis';
import './shared.css';

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <span className={`sev sev--${severity}`}>{severity}</span>;
}
