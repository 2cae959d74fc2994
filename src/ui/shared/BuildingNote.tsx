import './shared.css';

/**
 * Says that a huge rollout's view is still being built, and how far it has got: shown where its rows
 * will be while a whole-rollout pass runs in slices (src/load/slices.ts).
 */
export function BuildingNote({ what, done }: { what: string; done: number }) {
  const percent = Math.floor(done * 100);
  return (
    <div className="placeholder building-note" role="status" aria-live="polite">
      <p>
        {what}… {percent} %
      </p>
      <progress max={100} value={percent} aria-label={what} />
    </div>
  );
}
