import { ASSISTANT_OPEN, systemTurn, toolCallText, toolResponseTurn, userTurn } from '../chat/chatml';
import { TOOL_SPECS } from '../environment/toolSpecs';
import { taskById } from '../tasks';

/*
 * Contexts for the policy's and trainer's tests, rendered as the harness renders them: the prompt of
 * binary-search-001, then tool calls each followed by its response. Tests only.
 */
export const TEST_TASK = taskById('binary-search-001');

export const HEAD = systemTurn('Fix it.', TOOL_SPECS) + userTurn(TEST_TASK.prompt) + ASSISTANT_OPEN;

/** The head, then each call and the response the model saw. */
export function contextAfter(exchanges: readonly [tool: string, args: Record<string, unknown>, response: string][]): string {
  return (
    HEAD + exchanges.map(([tool, args, response]) => `${toolCallText(tool, args)}\n${toolResponseTurn(response)}${ASSISTANT_OPEN}`).join('')
  );
}

/** read_file of search.py, then the low fix applied. */
export const AFTER_LOW_FIX = contextAfter([
  ['read_file', { path: 'search.py' }, TEST_TASK.files.get('search.py') ?? ''],
  ['edit', { path: 'search.py', old: 'low = mid', new: 'low = mid + 1' }, 'patch applied'],
]);
