export type { AgreementReport, PairAgreement, PairStats } from './agreement/agreement';
export { agreement } from './agreement/agreement';
export type { GradedRollout, Rater } from './agreement/raters';
export { graderRater, itemTasks, regraderRaters, reviewerRaters } from './agreement/raters';
export type { ReviewerLogEntry } from './agreement/reviewLog';
export { foldReviewsByReviewer } from './agreement/reviewLog';
export type { AuditCheck, AuditFacts, CheckStatus, ContractReward, ContractRule, RewardTerms } from './audit';
export { auditChecks, auditFacts } from './audit';
export type { DigestComparison } from './auditDigest';
export { compareDigest, toHex } from './auditDigest';
export { graderIdentity, processScoreRows } from './auditScores';
export type { AuditSteps } from './auditSteps';
export { auditStepsPass } from './auditSteps';
export type { DevTests, PrivateTests, TestContrast } from './auditTests';
export { lastDevTests, privateTests, testContrast } from './auditTests';
export { CHUNKS_KEPT, chunkedArray, chunksOf, isChunked } from './chunked';
export type { AlignedRow, Alignment } from './compare/align';
export { MAX_LARGE_EDITS } from './compare/align';
export { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED } from './compare/bootstrap';
export type { Cohort, CohortRow, TaskComparison, TaskVerdict } from './compare/checkpoints';
export { compareCheckpoints, PASS_REWARD, parseCohort, printCohort } from './compare/checkpoints';
export type { GenerationDivergence, GenerationSide, TextChange } from './compare/rolloutPair';
export { alignRolloutsPass, argsText, firstDivergentGeneration, textChanges } from './compare/rolloutPair';
export type { ContextChange } from './context';
export { contextChange, previousSequence } from './context';
export { formatCount, formatStatistic, plural } from './counting';
export { exportEstimate } from './export/estimate';
export { rolloutSelector } from './export/select';
export type { ExportedText, PageFormat } from './export/selection';
export { exportSelection, selectedRollouts, tokenTextLoading } from './export/selection';
export type { Chosen, ExportSink, LineOut } from './export/sinks';
export { closeSink, dpoSink, jsonLine, Skips, sftSink, v1Sink } from './export/sinks';
export type { FailureMode, FailureModesResult } from './failureModes/modes';
export { FailureModes, failureModesOfRows } from './failureModes/modes';
export { findingCodes, groupFindings, hasFindingCode, MANY_FINDINGS, rowCounts, severityCounts } from './findingGroups';
export { FINDING_INFO, GROUP_FINDING_CODES } from './findingInfo';
export type { GroupOverview } from './groupOverview';
export { groupOverview } from './groupOverview';
export { groupAdvantages, groupIdOf, STD_EPSILON } from './groups';
export { sharedPrefixes, startsWithPair } from './ids';
export type { GroupMember, LintSink, LintTotals, RolloutFacts } from './lint';
export { groupSummary, LintSession, rolloutFacts, summarizeRollout } from './lint';

export { predictedFrom, trainingRoles } from './masks';
export type { Mismatch, MismatchPosition } from './mismatch';
export { DEFAULT_IS_CAP, mismatchDeltas, mismatchPositions, mismatchStats, poolMismatch, rolloutMismatch } from './mismatch';
export type { PackedFindings } from './packedFindings';
export { findingPlaces, findingsWithCodes, packedBuffers, packFindings, unpackFindings } from './packedFindings';
export type { Pass } from './passes';
export { PASS_CHUNK, runPass, settled, within } from './passes';
export { assignReviewers } from './queue/assign';
export { scannerRuleIds } from './queue/facts';
export type { ReviewerProgress } from './queue/progress';
export { itemsOf, matchQueueItems, nextUndone, queueProgress } from './queue/progress';
export type { ReviewQueue, ReviewQueueItem } from './queue/queueFile';
export {
  MAX_QUEUE_ITEMS,
  parseReviewQueue,
  REVIEW_QUEUE_PATH,
  REVIEW_QUEUE_VERSION,
  reviewerNameProblem,
} from './queue/queueFile';
export type { QueueCandidate, Stratum } from './queue/sample';
export { STRATA, sampleQueue, stratumOf } from './queue/sample';
export { mulberry32 } from './random';
export type { Flip, GroupChange, RegradeEffect, StepRewards } from './regrade/effect';
export { regradeEffect } from './regrade/effect';
export type { RegradeRow } from './regrade/regradeTable';
export {
  parseRegradeJournal,
  REGRADE_DIR,
  REGRADE_JOURNAL_FILE,
  REGRADE_TABLE_FILE,
  regradeGraders,
  regradeRowOf,
  regradeRowsOf,
} from './regrade/regradeTable';
export type { RewriteClass, RewriteKind, TokenSpan, TokenText } from './rewrite';
export { classifyRewrite } from './rewrite';
export type { FlowKind, Lane, RoleEventFacts, RoleFlow, RolePages } from './roleEvents';
export { LANES, rolePageEvents, rolePagesPass, roleTimeline } from './roleEvents';
export type { CheckOptions } from './rolloutChecks';
export { rolloutFindings } from './rolloutChecks';
export type { RunTrends, StepPoint, StepTotals, TrendFilter, TrendMeasures } from './runTrends';
export { measures, runTrends, totalsOver } from './runTrends';
export { DEFAULT_RULES, DEFAULT_RULES_FILE } from './scanners/defaultRules';
export type { Hit } from './search/match';
export { contentClauses, HIT_COUNT_CAP, matchRow } from './search/match';
export type { Query } from './search/query';
export { HAS_WORDS, markRegexes, parseQuery, QueryError } from './search/query';
export type { SearchMatch } from './search/scan';
export { RecordScanner } from './search/scan';
export { IN_SIGNAL_TERMINATIONS, isKnownTermination, terminationInfo, terminationRank } from './termination';
export { timestampMs, turnIndexPass } from './timeline';
export type { IdDecoder, TokenSource, TokenTrack } from './tokens';
export { isQwenTokenizer, recordTokenText, TokenRole, tokenTrack } from './tokens';
export { readTokenTable } from './tokenTable';
export { DEFAULT_DRIFT_THRESHOLD } from './trainingChecks';
export { isTextOnly, isTextOnlyRecord, messagesSeenBefore, visibleMessages } from './transcript';
export type * from './types';
