import { HAS_WORDS } from '../../analysis';

/** Every term of the query language (src/analysis/search/query.ts), as the help popover lists them. */
export const SEARCH_TERMS: ReadonlyArray<{ example: string; meaning: string }> = [
  { example: 'Traceback', meaning: 'text anywhere: actions, observations, generated text, prompt, grader artifact, new context text' },
  { example: '"file not found"', meaning: 'a phrase, spaces and all' },
  { example: '/err(or)?\\s\\d+/i', meaning: 'a regular expression (flags i m s u)' },
  { example: 'tool:run_shell', meaning: 'a step called this tool (* is a wildcard: tool:str_*)' },
  { example: 'status:timeout', meaning: 'a step’s observation status' },
  { example: 'term:infra_failure', meaning: 'the rollout’s termination' },
  { example: 'code:E_TRAINING_MASK', meaning: 'the rollout has a finding with this code (code:W_* for any warning code)' },
  {
    example: 'mode:"finished (fail) · grader: *"',
    meaning: 'the failure signature: how a failing rollout ended and its evidence (the Failure modes page links each mode so)',
  },
  { example: 'reward:0  reward>0.5', meaning: 'reward compared with = (or :), >, >=, <, <=' },
  { example: 'step>=100', meaning: 'the training step (training_step) compared the same way' },
  { example: 'group:g-7  task:t-*  id:r-12  policy:v3', meaning: 'group, task, rollout id (or id#attempt), policy version' },
  ...Object.entries(HAS_WORDS).map(([word, meaning]) => ({ example: `has:${word}`, meaning })),
  { example: '-tool:finish', meaning: 'a minus in front: rollouts the term does not match' },
];

export const SEARCH_RULES: readonly string[] = [
  'Terms separated by spaces must all hold (AND). There is no OR: put alternatives in one regex, /a|b/.',
  'Text ignores case unless it has an uppercase letter; a regex is as written (add i to ignore case).',
  'Names after tool:, status:, term: and the others ignore case; * matches anything.',
  'Contexts are searched where they have token strings, past what the previous turn already showed.',
];
