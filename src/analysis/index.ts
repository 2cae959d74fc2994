export type { AuditCheck, AuditFacts, CheckStatus, ContractReward, ContractRule, RewardTerms } from './audit';
export { auditChecks, auditFacts } from './audit';
export type { DigestComparison } from './auditDigest';
export { compareDigest, toHex } from './auditDigest';

export { graderIdentity, processScoreRows } from './auditScores';
export type { PrivateTests, TestContrast } from './auditTests';
export { lastDevTests, privateTests, testContrast } from './auditTests';
export type { ContextChange } from './context';
export { contextChange, previousSequence } from './context';
export { formatCount, formatStatistic, plural } from './counting';

export { FINDING_INFO, GROUP_FINDING_CODES } from './findingInfo';
export type { GroupOverview } from './groupOverview';
export { groupOverview } from './groupOverview';
export { groupAdvantages, groupIdOf, STD_EPSILON } from './groups';
export { sharedPrefixes, startsWithPair } from './ids';
export type { GroupMember, RolloutFacts } from './lint';
export { groupSummary, LintSession, rolloutFacts, summarizeRollout } from './lint';

export { predictedFrom, trainingRoles } from './masks';
export type { Mismatch, MismatchPosition } from './mismatch';
export { DEFAULT_IS_CAP, mismatchDeltas, mismatchPositions, mismatchStats, poolMismatch, rolloutMismatch } from './mismatch';
export type { RewriteClass, RewriteKind, TokenSpan, TokenText } from './rewrite';
export { classifyRewrite } from './rewrite';
export type { FlowKind, Lane, RoleEventFacts, RoleFlow, RoleTimelineFacts } from './roleEvents';
export { LANES, roleTimeline } from './roleEvents';
export type { CheckOptions } from './rolloutChecks';
export { rolloutFindings } from './rolloutChecks';

export type { RunTrends, StepPoint, StepTotals, TrendFilter, TrendMeasures } from './runTrends';
export { measures, runTrends, totalsOver } from './runTrends';
export { IN_SIGNAL_TERMINATIONS, isKnownTermination, terminationInfo, terminationRank } from './termination';
export { firstFinishStep, joinTurns, timestampMs } from './timeline';
export type { IdDecoder, TokenSource, TokenTrack } from './tokens';
export { isQwenTokenizer, recordTokenText, TokenRole, tokenTrack } from './tokens';
export { DEFAULT_DRIFT_THRESHOLD } from './trainingChecks';
export { isTextOnly, visibleMessages } from './transcript';
export type * from './types';
