import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { DigestComparison } from '../../analysis';
import type { Rollout } from '../../format';
import type { ComputedDigest } from './artifactDigest';
import { DiffView } from './DiffView';
import { diffLines } from './diffLines';

function Hex({ hex }: { hex: string }) {
  return <code className="digest__hex">sha256:{hex}</code>;
}

function DigestResult({ comparison, computed }: { comparison: DigestComparison; computed: ComputedDigest }) {
  const how = `recomputed in this browser with ${computed.via} over the artifact’s UTF-8 bytes`;
  switch (comparison.status) {
    case 'match':
      return (
        <div className="digest digest--match" role="status">
          <strong>✓ Digest matches</strong>
          <span className="digest__how">The recorded artifact_digest equals the SHA-256 {how}.</span>
          <Hex hex={comparison.hex} />
        </div>
      );
    case 'mismatch':
      return (
        <div className="digest digest--mismatch" role="alert">
          <strong>✗ Digest mismatch: this artifact is not the one the recorded digest names</strong>
          <span className="digest__how">
            What the grader scored may differ from what is shown here: the artifact or its digest was changed after grading.
          </span>
          <dl className="digest__pair">
            <dt>recorded</dt>
            <dd>
              <Hex hex={comparison.recorded} />
            </dd>
            <dt>computed</dt>
            <dd>
              <Hex hex={comparison.computed} />
            </dd>
          </dl>
        </div>
      );
    case 'absent':
      return (
        <div className="digest digest--absent" role="status">
          <strong>No artifact_digest recorded</strong>
          <span className="digest__how">Nothing to check this artifact against. Its SHA-256, {how}:</span>
          <Hex hex={comparison.computed} />
        </div>
      );
    case 'unrecognised':
      return (
        <div className="digest digest--absent" role="status">
          <strong>Recorded digest not compared</strong>
          <span className="digest__how">
            “{comparison.recorded}” is not a SHA-256 digest (sha256:&lt;hex&gt; or 64 hex digits). The artifact’s SHA-256, {how}:
          </span>
          <Hex hex={comparison.computed} />
        </div>
      );
  }
}

/** The submitted artifact: its digest checked in the browser, then the diff itself. */
export function ArtifactPanel({
  record,
  digest,
  comparison,
}: {
  record: Rollout;
  digest: UseQueryResult<ComputedDigest>;
  comparison: DigestComparison | null;
}) {
  const artifact = record.grading?.artifact;
  const recorded = record.grading?.artifact_digest;
  const stat = useMemo(() => (artifact === undefined ? null : diffLines(artifact)), [artifact]);

  return (
    <section className="audit-card audit-artifact" aria-labelledby="audit-artifact-title">
      <h3 id="audit-artifact-title" className="audit-card__title">
        Submitted artifact
        {stat?.isDiff && (
          <span className="audit-card__aside">
            {stat.files.join(', ')} <span className="diff-stat diff-stat--add">+{stat.added}</span>{' '}
            <span className="diff-stat diff-stat--del">−{stat.removed}</span>
          </span>
        )}
      </h3>
      {artifact === undefined ? (
        <p className="audit-empty">
          No artifact recorded.
          {recorded !== undefined && (
            <>
              {' '}
              A digest is recorded (<code>{recorded}</code>) but there is no artifact to check it against.
            </>
          )}
        </p>
      ) : (
        <>
          {digest.isPending && <p className="digest digest--pending">Computing the artifact’s SHA-256…</p>}
          {digest.error && (
            <p className="digest digest--mismatch" role="alert">
              Could not compute the artifact’s digest: {String(digest.error)}
            </p>
          )}
          {comparison && digest.data && <DigestResult comparison={comparison} computed={digest.data} />}
          {artifact === '' ? <p className="audit-empty">The artifact is empty.</p> : <DiffView artifact={artifact} />}
        </>
      )}
    </section>
  );
}
