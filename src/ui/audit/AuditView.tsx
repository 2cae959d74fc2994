import { useMemo } from 'react';
import { auditChecks, auditFacts, compareDigest, testContrast } from '../../analysis';
import type { Rollout } from '../../format';
import { useSelectedRecord } from '../../state';
import { ArtifactPanel } from './ArtifactPanel';
import { AuditHeadline } from './AuditHeadline';
import { useArtifactDigest } from './artifactDigest';
import { auditFlags } from './auditFlags';
import { wordChecks } from './auditWords';
import { ProcessScores } from './ProcessScores';
import { ReviewPanel } from './ReviewPanel';
import { TestsCompare } from './TestsCompare';
import { VerdictCard } from './VerdictCard';
import './audit.css';

/**
 * Auditing one grader decision: the verdict and who gave it, whether reward and verdict agree, the
 * tests the model saw beside the private ones, the artifact with its digest checked here, and the
 * reviewer's own judgement.
 */
export function AuditView() {
  const record = useSelectedRecord();
  return record ? <Audit record={record} /> : null;
}

function Audit({ record }: { record: Rollout }) {
  const facts = useMemo(() => auditFacts(record), [record]);
  const checks = useMemo(() => wordChecks(auditChecks(record, facts), facts), [record, facts]);
  const contrast = useMemo(() => testContrast(record), [record]);
  const artifact = record.grading?.artifact;
  const recorded = record.grading?.artifact_digest;
  const digest = useArtifactDigest(artifact);
  const comparison = useMemo(() => (digest.data ? compareDigest(recorded, digest.data.hex) : null), [recorded, digest.data]);
  const flags = useMemo(() => auditFlags(checks, comparison, contrast), [checks, comparison, contrast]);
  return (
    <div className="audit">
      <ReviewPanel />
      <AuditHeadline flags={flags} />
      <div className="audit__grid">
        <div className="audit__col">
          <VerdictCard record={record} facts={facts} checks={checks} />
          <ProcessScores record={record} />
        </div>
        <div className="audit__col">
          <TestsCompare record={record} />
          <ArtifactPanel record={record} digest={digest} comparison={comparison} />
        </div>
      </div>
    </div>
  );
}
