export type { AuditCheck, AuditFacts, CheckStatus, ContractReward, ContractRule, RewardTerms } from './audit';
export { auditChecks, auditFacts } from './audit';
export type { DigestComparison } from './auditDigest';
export { compareDigest, toHex } from './auditDigest';

export { graderIdentity, processScoreRows } from './auditScores';
export type { PrivateTests, TestContrast } from './auditTests';
export { lastDevTests, privateTests, testContrast } from './auditTests';
export type { ContextChange } from './context';
export { contextChange, previousSequence } from './context';
export { formatCount, plural } from './counting';

export { FINDING_INFO, GROUP_FINDING_CODES } from './findingInfo';
export type { GroupOverview } from './groupOverview';
export { groupOverview } from './groupOverview';
export { groupAdvantages, groupIdOf } from './groups';
export { sharedPrefixes, startsWithPair } from './ids';
export type { RolloutFacts } from './lint';
export { LintSession, rolloutFacts, summarizeRollout } from './lint';

export { predictedFrom, trainingRoles } from './masks';
export { mismatchDeltas, mismatchStats } from './mismatch';

export type { FlowKind, Lane, RoleEventFacts, RoleFlow } from './roleEvents';
export { LANES, roleTimeline } from './roleEvents';
export type { CheckOptions } from './rolloutChecks';
export { rolloutFindings } from './rolloutChecks';
export type { Hit } from './search/match';
export { contentClauses, HIT_COUNT_CAP, matchRow } from './search/match';
export type { Query } from './search/query';
export { HAS_WORDS, parseQuery, QueryError } from './search/query';
export type { SearchMatch } from './search/scan';
export { RecordScanner } from './search/scan';
export { IN_SIGNAL_TERMINATIONS, isKnownTermination, terminationInfo, terminationRank } from './termination';
export { firstFinishStep, joinTurns, timestampMs } from './timeline';
export type { TokenSource, TokenTrack } from './tokens';
export { knownPieces, TokenRole, tokenTrack } from './tokens';
export { DEFAULT_DRIFT_THRESHOLD } from './trainingChecks';
export { isTextOnly, visibleMessages } from './transcript';
export type * from './types';
