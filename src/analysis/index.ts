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
export { formatCount, plural } from './counting';
export type { FindingInfo } from './findingInfo';
export { FINDING_INFO, GROUP_FINDING_CODES } from './findingInfo';
export type { GroupOverview } from './groupOverview';
export { groupOverview } from './groupOverview';
export type { AdvantageStats } from './groups';
export { advantageStats, groupIdOf, STD_EPSILON } from './groups';
export { commonPrefix, firstMismatch, sharedPrefixes, startsWithPair } from './ids';
export type { RolloutFacts } from './lint';
export { LintSession, rolloutFacts, summarizeRollout } from './lint';
export type { MaskSpan, PositionRole } from './masks';
export { predictedFrom, segmentMask, segmentMaskSpans, trainingMaskSpans, trainingRoles } from './masks';
export { findRegressions } from './regressions';
export type { FlowKind, Lane, RewardSource, RoleEventFacts, RoleEventKind, RoleFlow, RoleTimelineFacts } from './roleEvents';
export { LANES, roleTimeline } from './roleEvents';
export type { CheckOptions } from './rolloutChecks';
export { rolloutFindings } from './rolloutChecks';
export type { KnownTermination, TerminationInfo } from './termination';
export { IN_SIGNAL_TERMINATIONS, isKnownTermination, rewardExpected, terminationInfo, terminationRank } from './termination';
export type { Turn } from './timeline';
export { firstFinishStep, joinTurns } from './timeline';
export type { TokenSource, TokenTrack } from './tokens';
export { knownPieces, TokenRole, tokenTrack } from './tokens';
export { DEFAULT_DRIFT_THRESHOLD } from './trainingChecks';
export { isTextOnly, visibleMessages } from './transcript';
export type * from './types';
