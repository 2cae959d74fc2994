import { JsonTooDeepError, MAX_JSON_DEPTH, nestsDeeperThan } from '../json';
import { checkRecord, type LineResult, parseLine } from '../jsonl';
import { convertAtroposGroups } from './atroposGroups';
import { FORMAT_LABELS } from './formatInfo';
import { convertHarborAtif } from './harborAtif';
import { convertInspectEvalSample, convertInspectLog } from './inspectLog';
import { convertMapped } from './mapping/convert';
import { convertMiniSweAgent } from './miniSweAgent';
import { convertNemoGym } from './nemoGym';
import { convertOpenaiChat } from './openaiChat';
import { convertOpenHandsEval, convertOpenHandsEvents } from './openHands';
import { convertOtel } from './otelGenai';
import { isRecord } from './read';
import { convertRllmEpisode } from './rllmEpisode';
import { convertByShape } from './structural/readByShape';
import { convertSweAgentTraj } from './sweAgentTraj';
import { convertTau2Results, convertTauBench } from './tauBench';
import { type Convert, type ConvertContext, ConvertError, type FormatId } from './types';
import { convertVerifiersResults } from './verifiersResults';
import { convertVerifiersTraces } from './verifiersTraces';
import { convertVerlRollouts } from './verlRollouts';

/** Each format's converter (v1 is parsed, not converted): a new format fails to compile until it has one. */
const ADAPTERS: Record<Exclude<FormatId, 'v1'>, Convert> = {
  'verifiers-results': convertVerifiersResults,
  'verifiers-traces': convertVerifiersTraces,
  'rllm-episode': convertRllmEpisode,
  'openai-chat': convertOpenaiChat,
  'swe-agent-traj': convertSweAgentTraj,
  'inspect-eval': convertInspectEvalSample,
  'inspect-log': convertInspectLog,
  'openhands-eval': convertOpenHandsEval,
  'openhands-events': convertOpenHandsEvents,
  'tau-bench': convertTauBench,
  'tau2-bench': convertTau2Results,
  'nemo-gym': convertNemoGym,
  'mini-swe-agent': convertMiniSweAgent,
  'verl-rollouts': convertVerlRollouts,
  'harbor-atif': convertHarborAtif,
  'atropos-groups': convertAtroposGroups,
  'otel-genai': convertOtel,
  structural: convertByShape,
  mapped: convertMapped,
};

function error(ctx: ConvertContext, code: 'E_PARSE' | 'E_SCHEMA', message: string): LineResult {
  return { kind: 'error', value: { file: ctx.file, line: ctx.line, code, message } };
}

/**
 * One parsed JSON value of a known format -> validated v1 results, all at the value's line. A value the
 * adapter cannot read is one E_SCHEMA naming the source field; every record it produces is then checked
 * by the v1 schema exactly as a v1 line would be. Never throws.
 */
export function convertValue(format: FormatId, value: unknown, ctx: ConvertContext): LineResult[] {
  if (!isRecord(value)) {
    return [
      error(ctx, 'E_PARSE', `expected a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`),
    ];
  }
  if (format === 'v1') return [parseLine(JSON.stringify(value), ctx.line, ctx.file) ?? error(ctx, 'E_PARSE', 'empty value')];
  let records: Record<string, unknown>[];
  try {
    records = ADAPTERS[format](value, ctx);
  } catch (e) {
    const why = e instanceof ConvertError ? e.message : `could not convert (${e instanceof Error ? e.message : String(e)})`;
    return [error(ctx, 'E_SCHEMA', `${FORMAT_LABELS[format]}: ${why}`)];
  }
  return records.map((record) => {
    // Checked as it is, not written out and parsed again (that was half the cost of reading a converted file);
    // still bounded in depth, as every parsed line is: the source was, and a converter nests it a level or two.
    if (nestsDeeperThan(record, MAX_JSON_DEPTH)) return error(ctx, 'E_PARSE', new JsonTooDeepError(MAX_JSON_DEPTH).message);
    const result = checkRecord(record, ctx.line, ctx.file);
    if (result.kind === 'error') return error(ctx, 'E_SCHEMA', `${FORMAT_LABELS[format]}, after conversion: ${result.value.message}`);
    return result;
  });
}
