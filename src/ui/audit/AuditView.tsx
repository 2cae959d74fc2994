import { useMemo } from 'react';
import { type AuditSteps, auditChecks, auditFacts, compareDigest, lastDevTests, plural, testContrast } from '../../analysis';
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
import { useAuditSteps } from './useAuditSteps';
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
  const { steps, done } = useAuditSteps(record);
  return (
    <div className="audit">
      <ReviewPanel />
      {steps ? (
        <AuditBody record={record} steps={steps} />
      ) : (
        <p className="audit-reading" aria-busy="true">
          Reading the rollout’s {plural(record.steps?.length ?? 0, 'step')} for the audit… {Math.floor(done * 100)}%
        </p>
      )}
    </div>
  );
}

function AuditBody({ record, steps }: { record: Rollout; steps: AuditSteps }) {
  const facts = useMemo(() => auditFacts(record, steps), [record, steps]);
  const checks = useMemo(() => wordChecks(auditChecks(record, facts), facts), [record, facts]);
  const dev = useMemo(() => lastDevTests(record, steps.lastRunTests), [record, steps]);
  const contrast = useMemo(() => testContrast(record, dev), [record, dev]);
  const artifact = record.grading?.artifact;
  const recorded = record.grading?.artifact_digest;
  const digest = useArtifactDigest(artifact);
  const comparison = useMemo(() => (digest.data ? compareDigest(recorded, digest.data.hex) : null), [recorded, digest.data]);
  const graded = record.grading !== undefined;
  const flags = useMemo(() => auditFlags(checks, comparison, contrast, graded), [checks, comparison, contrast, graded]);
  return (
    <>
      <AuditHeadline flags={flags} />
      <div className="audit__grid">
        <div className="audit__col">
          <VerdictCard record={record} facts={facts} checks={checks} />
          <ProcessScores record={record} processRewards={steps.processRewards} />
        </div>
        <div className="audit__col">
          <TestsCompare record={record} dev={dev} contrast={contrast} />
          <ArtifactPanel record={record} digest={digest} comparison={comparison} />
        </div>
      </div>
    </>
  );
}
