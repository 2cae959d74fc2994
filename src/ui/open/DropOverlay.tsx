import './open.css';

export function DropOverlay() {
  return (
    <div className="drop-overlay" role="status">
      <div className="drop-overlay__box">
        <strong>Drop to open</strong>
        <span>.jsonl or .jsonl.gz files — several at once are read together</span>
      </div>
    </div>
  );
}
