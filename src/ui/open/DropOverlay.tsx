import { ACCEPTED_WORDS } from '../shared/useOpenFiles';
import './open.css';

export function DropOverlay() {
  return (
    <div className="drop-overlay" role="status">
      <div className="drop-overlay__box">
        <strong>Drop to open</strong>
        <span>{ACCEPTED_WORDS} files — several at once are read together</span>
      </div>
    </div>
  );
}
