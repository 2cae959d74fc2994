import './open.css';

export function DropOverlay() {
  return (
    <div className="drop-overlay" role="status">
      <div className="drop-overlay__box">
        <strong>Drop to open</strong>
        <span>.jsonl, .jsonl.gz, rLLM .json or SWE-agent .traj files — several at once are read together</span>
      </div>
    </div>
  );
}
