import { isKnownTermination, terminationInfo } from '../../analysis';
import './shared.css';

/** Termination as text and colour; the title says whether it is in the policy signal, and why not. */
export function TerminationBadge({ termination }: { termination: string }) {
  const info = terminationInfo(termination);
  const kind = isKnownTermination(termination) ? termination : 'unknown';
  return (
    <span className={`term term--${kind}`} title={info.meaning}>
      {info.label}
    </span>
  );
}
