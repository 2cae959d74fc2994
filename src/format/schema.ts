import { lazily, z } from './zod';

/*
 * Trajectory format v1 (shared/trajectory-format.md §2–§3).
 *
 * Every object is loose: unknown fields are kept on the parsed value so the raw view can show them.
 * Length agreements between arrays (logprobs vs ids, masks vs ids) are deliberately NOT checked here:
 * they are findings with their own codes (E_LOGPROB_LENGTH, E_MASK_LENGTH, ...) and the rollout must
 * stay visible so a person can see what is wrong with it. The schema only rejects values whose type
 * makes the record unreadable (docs/adr/0002-schema-strictness.md).
 */

/*
 * Token arrays run to tens of thousands of entries. A zod schema per element, or even
 * `Array.prototype.every` with a callback, costs several times the JSON.parse that produced them
 * (measured: 55 ms vs 5 ms for 9.4 M ids), so each kind of array gets its own plain loop, and the error
 * still names the first bad index.
 */

/** Index of the first element that is not an integer, or -1. */
function firstNonInt(a: unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    // `(x | 0) === x` settles every int32 at once; larger integers take the exact test.
    if (typeof x !== 'number' || ((x | 0) !== x && !Number.isInteger(x))) return i;
  }
  return -1;
}

/** Index of the first element that is not a finite number (null allowed when `nullable`), or -1. */
function firstNonFinite(a: unknown[], nullable: boolean): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    if (x === null && nullable) continue;
    // x - x is 0 for every finite number and NaN for NaN and ±Infinity.
    if (typeof x !== 'number' || x - x !== 0) return i;
  }
  return -1;
}

function firstNonBit(a: unknown[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== 0 && a[i] !== 1) return i;
  return -1;
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return `string ${JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)}`;
  if (typeof v === 'number') return `number ${v}`;
  return typeof v;
}

/** An array whose elements `firstBad` accepts; typed as T[] once that loop has found no bad element. */
function checkedArray<T>(what: string, firstBad: (a: unknown[]) => number) {
  return z.unknown().transform((v, ctx): T[] => {
    if (!Array.isArray(v)) {
      ctx.addIssue({ code: 'custom', message: `expected an array, got ${describeValue(v)}` });
      return z.NEVER;
    }
    const i = firstBad(v);
    if (i === -1) return v as T[];
    ctx.addIssue({ code: 'custom', path: [i], message: `expected ${what}, got ${describeValue(v[i])}` });
    return z.NEVER;
  });
}

const intArray = () => checkedArray<number>('an integer', firstNonInt);
const numArray = () => checkedArray<number>('a number', (a) => firstNonFinite(a, false));
const bitArray = () => checkedArray<0 | 1>('0 or 1', firstNonBit);
const nullableNumArray = () => checkedArray<number | null>('a number or null', (a) => firstNonFinite(a, true));

/**
 * An optional field: absent, or null, which means the same (writers in Python emit `None` as null, e.g.
 * `"seed": null`), or a value of its type. Null is read as absent, so no view or check sees it.
 */
function opt<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === null ? undefined : v), schema.optional());
}

/*
 * The schemas are built when first used, not when this module loads: building them is most of what a lines
 * worker's script does when it starts (73-127 ms of module evaluation in a trace, on the load's critical
 * path), and a valid line never needs them (the fast check takes it, fastCheck.ts).
 */
function buildV1() {
  const versioned = z.looseObject({ name: opt(z.string()), version: opt(z.string()) });

  const segmentSchema = z.looseObject({
    input_ids: intArray(),
    generated_ids: intArray(),
    old_logprobs: numArray(),
    tool_call_id: z.string().nullable().optional(),
    loss_mask: opt(bitArray()),
    input_tokens: opt(z.array(z.string())),
    generated_tokens: opt(z.array(z.string())),
    // Converted rollouts also carry `text`, `transcript_index`, `context_messages` and `tool_call_ids`:
    // not v1, so unknown fields here, read through `additions.ts` only when well-formed.
  });

  const testsSchema = z.looseObject({
    passed: opt(z.array(z.string())),
    failed: opt(z.array(z.string())),
    over_budget: opt(z.array(z.string())),
  });

  const stepSchema = z.looseObject({
    tool_call_id: z.string(),
    tool: z.string(),
    args: opt(z.record(z.string(), z.unknown())),
    observation: opt(
      z.looseObject({
        text: opt(z.string()),
        status: opt(z.string()),
        exit_code: z.int().nullable().optional(),
        truncated: opt(z.boolean()),
      }),
    ),
    tests: opt(testsSchema),
    attempts: opt(z.int().min(1)),
    executions: opt(z.int().min(0)),
    process_reward: opt(z.number()),
    started_at: opt(z.string()),
    ended_at: opt(z.string()),
  });

  /** Private test results: counts, or the names of the tests (both occur in graders' output). */
  const countOrNames = z.union([z.int().min(0), z.array(z.string())]);

  const gradingSchema = z.looseObject({
    verdict: opt(z.string()),
    private_tests: opt(z.looseObject({ passed: opt(countOrNames), failed: opt(countOrNames) })),
    artifact: opt(z.string()),
    artifact_digest: opt(z.string()),
    process_scores: opt(z.array(z.looseObject({ step: opt(z.int()), name: opt(z.string()), value: opt(z.number()) }))),
    grader: opt(versioned),
  });

  /**
   * The optimiser update a rollout went into, as a trainer may record it (an addition to §2; see
   * docs/format-decisions.md): the update's index, the weights it started from, the advantage the
   * rollout was given and how many of its tokens carried loss (`clipped`: how many the ratio clip stopped).
   */
  const trainingUpdateSchema = z.looseObject({
    step: opt(z.int().nonnegative()),
    policy_version: opt(z.string()),
    advantage: opt(z.number()),
    tokens: opt(z.int().nonnegative()),
    clipped: opt(z.int().nonnegative()),
  });

  const trainingSchema = z.looseObject({
    sequence_ids: intArray(),
    loss_mask: bitArray(),
    logprobs: opt(nullableNumArray()),
    update: opt(trainingUpdateSchema),
  });

  const rolloutSchema = z.looseObject({
    task_id: z.string(),
    rollout_id: z.string(),
    segments: z.array(segmentSchema),
    termination: z.string(),
    // Required by §2, but §7 reports a missing reward as E_REWARD_MISSING rather than rejecting the
    // line, so an absent reward parses as null and stays visible.
    reward: z.number().nullable().optional(),
    attempt_id: z.string().nullable().optional(),
    group_id: opt(z.string()),
    policy_version: opt(z.string()),
    environment_version: opt(z.string()),
    tokenizer: opt(versioned),
    chat_template: opt(versioned),
    grader: opt(versioned),
    sampling: opt(
      z.looseObject({
        temperature: opt(z.number()),
        top_p: opt(z.number()),
        top_k: opt(z.int()),
        max_new_tokens: opt(z.int()),
        seed: opt(z.int()),
        constrained: opt(z.union([z.boolean(), z.string()])),
      }),
    ),
    budget: opt(
      z.looseObject({
        max_actions: opt(z.number()),
        max_seconds: opt(z.number()),
        actions_used: opt(z.number()),
        seconds_used: opt(z.number()),
      }),
    ),
    task: opt(z.looseObject({ prompt: opt(z.string()), contract: opt(z.string()) })),
    steps: opt(z.array(stepSchema)),
    grading: opt(gradingSchema),
    training: opt(trainingSchema),
    started_at: opt(z.string()),
    ended_at: opt(z.string()),
    // Converted rollouts also carry `source_format` and `transcript` (docs/formats.md): not v1, so unknown
    // fields here, read through `additions.ts` only when well-formed.
  });
  return {
    rollout: rolloutSchema,
    segment: segmentSchema,
    step: stepSchema,
    grading: gradingSchema,
    training: trainingSchema,
    trainingUpdate: trainingUpdateSchema,
  };
}

/** The v1 schemas, built on first call. */
export const v1Schema = lazily(buildV1);

type V1 = ReturnType<typeof buildV1>;

export type Rollout = z.infer<V1['rollout']>;
export type Segment = z.infer<V1['segment']>;
export type Step = z.infer<V1['step']>;
export type Grading = z.infer<V1['grading']>;
export type Training = z.infer<V1['training']>;
export type TrainingUpdate = z.infer<V1['trainingUpdate']>;
