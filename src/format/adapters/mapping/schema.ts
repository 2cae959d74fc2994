import { lazily, z } from '../../zod';
import { MESSAGE_SHAPES } from './shapes';

/*
 * A field mapping: a small declarative JSON file that says where a home-grown dump keeps what v1 needs
 * (docs/formats.md, "Your own format: a field mapping"). Paths are dot-separated keys, with numbers for
 * array elements (`result.scores.0`). Validated here, once; errors name the mapping field.
 */

const TERMINATIONS = ['finished', 'budget_exhausted', 'invalid_call', 'infra_failure', 'cancelled'] as const;

/** The mapping file's schema, built on first use: reading a file without a mapping never builds it. */
export const fieldMappingSchema = lazily(() => {
  const path = z
    .string()
    .min(1, 'expected a path such as "result.score"')
    .regex(/^[^.]+(\.[^.]+)*$/, 'expected dot-separated keys such as "result.score" (no empty parts)');

  /** Keys inside each tool call. */
  const toolCallFields = z.strictObject({
    id: path.optional(),
    name: path.optional(),
    arguments: path.optional(),
  });

  /** Token arrays, read where the mapping says (per record, or per turn). */
  const tokenFields = z.strictObject({
    input_ids: path.optional(),
    generated_ids: path.optional(),
    logprobs: path.optional(),
  });

  const messagesMapping = z.strictObject({
    /** Where the list of chat messages is. */
    path,
    /** How its messages are written (shapes.ts): OpenAI chat by default; another shape is read into chat first. */
    shape: z.enum(MESSAGE_SHAPES).optional(),
    role: path.optional(),
    content: path.optional(),
    tool_calls: path.optional(),
    tool_call_id: path.optional(),
    /** The dump's own role names → system, user, assistant, tool. */
    roles: z.record(z.string(), z.enum(['system', 'user', 'assistant', 'tool'])).optional(),
  });

  const turnsMapping = z.strictObject({
    /** Where the list of turns is: each turn is one model generation and what the harness did with it. */
    path,
    /** The model's text in the turn. */
    output: path.optional(),
    /** The turn's tool calls: a list, or one call object. */
    tool_calls: path.optional(),
    /** What the harness returned: one text, or a list aligned with the tool calls. */
    observation: path.optional(),
    tokens: tokenFields.optional(),
  });

  const fieldMappingSchema = z
    .strictObject({
      /** Optional description, kept for the reader; not used. */
      description: z.string().optional(),
      rollout_id: path.optional(),
      task_id: path.optional(),
      group_id: path.optional(),
      policy_version: path.optional(),
      training_step: path.optional(),
      prompt: path.optional(),
      reward: path.optional(),
      status: path.optional(),
      /** The dump's status values → the five v1 terminations; a value not listed stays as written. */
      status_map: z.record(z.string(), z.enum(TERMINATIONS)).optional(),
      messages: messagesMapping.optional(),
      turns: turnsMapping.optional(),
      tool_call: toolCallFields.optional(),
      /** One generation's token arrays for a single-turn record. */
      tokens: tokenFields.optional(),
    })
    .refine((m) => !(m.messages && m.turns), { message: 'give "messages" or "turns", not both', path: ['turns'] })
    .refine((m) => m.status_map === undefined || m.status !== undefined, {
      message: '"status_map" needs "status" (the path of the status field)',
      path: ['status_map'],
    });
  return fieldMappingSchema;
});

export type FieldMapping = z.infer<ReturnType<typeof fieldMappingSchema>>;

/** A mapping that is not valid: every problem, each naming the mapping field. */
export class MappingError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

/**
 * Parses and validates a mapping given as JSON text (a file, or what a person pasted). Throws a
 * MappingError whose problems each name the field, e.g. `status_map.done: expected one of finished, …`.
 */
export function parseFieldMapping(text: string): FieldMapping {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new MappingError([`not valid JSON: ${e instanceof Error ? e.message : String(e)}`]);
  }
  return validateFieldMapping(value);
}

function validateFieldMapping(value: unknown): FieldMapping {
  const parsed = fieldMappingSchema().safeParse(value);
  if (parsed.success) return parsed.data;
  throw new MappingError(
    parsed.error.issues.map((issue) => {
      const at = issue.path.map(String).join('.');
      const message =
        issue.code === 'invalid_value'
          ? `expected one of ${issue.values.map(String).join(', ')}`
          : issue.code === 'unrecognized_keys'
            ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`
            : issue.message;
      return at === '' ? message : `${at}: ${message}`;
    }),
  );
}
