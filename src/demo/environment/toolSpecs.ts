import type { ToolSpec } from '../chat/chatml';

/** The environment's interface as the model is told about it in the system turn. */
export const TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: 'read_file',
    description: 'Return the contents of a file in the repository.',
    parameters: { type: 'object', properties: { path: { type: 'string', description: 'file name, e.g. search.py' } }, required: ['path'] },
  },
  {
    name: 'edit',
    description: 'Replace the one occurrence of old with new in a file. Fails if old occurs zero times or more than once.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'file name' },
        old: { type: 'string', description: 'exact text to replace' },
        new: { type: 'string', description: 'replacement text' },
      },
      required: ['path', 'old', 'new'],
    },
  },
  {
    name: 'run_tests',
    description: 'Run the public dev tests and report each test as passed, failed or over budget.',
    parameters: { type: 'object', properties: {}, required: [] },
  },
  {
    name: 'finish',
    description: 'Submit your change. This ends the episode.',
    parameters: { type: 'object', properties: {}, required: [] },
  },
];

export const TOOL_NAMES: ReadonlySet<string> = new Set(TOOL_SPECS.map((t) => t.name));
