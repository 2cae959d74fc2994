export type {
  AuditCheck,
  AuditCheckId,
  CheckStatus,
  DevTests,
  DigestComparison,
  PrivateTests,
  ProcessScoreRow,
  RecordedDigest,
  TestContrast,
} from './audit';
export {
  auditChecks,
  CONTRACT_TEXT,
  compareDigest,
  contractReward,
  DEMO_CONTRACT,
  graderIdentity,
  lastDevTests,
  normalizeDigest,
  privateTests,
  processScoreRows,
  testContrast,
  toHex,
} from './audit';
export type { ContextChange, ContextPiece } from './context';
export { contextChange, MAX_CONTEXT_EDITS, previousSequence } from './context';
export { FINDING_INFO } from './findingInfo';
export type { GroupOverview } from './groupOverview';
export { groupOverview } from './groupOverview';
export type { AdvantageStats, Scored } from './groups';
export { advantageStats, groupAdvantages, groupIdOf, STD_EPSILON } from './groups';
export { commonPrefix, firstMismatch, sharedPrefixes, startsWithPair } from './ids';
export type { RolloutFacts } from './lint';
export { LintSession, rolloutFacts, summarizeRollout } from './lint';
export type { MaskSpan, PositionRole } from './masks';
export { predictedFrom, segmentMask, segmentMaskSpans, trainingMaskSpans, trainingRoles } from './masks';
export type { Mismatch } from './mismatch';
export { DEFAULT_IS_CAP, mismatchDeltas, mismatchStats, rolloutMismatch } from './mismatch';
export { findRegressions } from './regressions';
export type { CheckOptions } from './rolloutChecks';
export { rolloutFindings } from './rolloutChecks';
export type { KnownTermination, TerminationInfo } from './termination';
export { isKnownTermination, rewardExpected, terminationInfo } from './termination';
export type { Turn } from './timeline';
export { firstFinishStep, joinTurns } from './timeline';
export type { TokenSource, TokenTrack } from './tokens';
export { knownPieces, TokenRole, tokenTrack } from './tokens';
export { DEFAULT_DRIFT_THRESHOLD } from './trainingChecks';
export { isTextOnly, visibleMessages } from './transcript';
export type * from './types';
