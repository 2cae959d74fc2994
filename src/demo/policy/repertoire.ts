/**
 * What the toy policy "knows": for each file it may be asked to fix, the edits it considers (two
 * real fixes and one plausible-looking wrong change) and the calls it can make. This stands in for
 * what a language model would have learned; it is not read from the task or the grader, and the
 * policy still has to find out from the context whether an edit applied and whether tests pass.
 */
interface KnownEdit {
  key: 'fix:0' | 'fix:1' | 'distractor';
  old: string;
  new: string;
}

export interface Repertoire {
  mainFile: string;
  testFile: string;
  edits: readonly KnownEdit[];
}

export const REPERTOIRES: readonly Repertoire[] = [
  {
    mainFile: 'search.py',
    testFile: 'test_search.py',
    edits: [
      { key: 'fix:0', old: 'low = mid', new: 'low = mid + 1' },
      { key: 'fix:1', old: 'high = mid', new: 'high = mid - 1' },
      { key: 'distractor', old: 'while low <= high:', new: 'while low < high:' },
    ],
  },
  {
    mainFile: 'bounds.py',
    testFile: 'test_bounds.py',
    edits: [
      { key: 'fix:0', old: 'low = mid', new: 'low = mid + 1' },
      { key: 'fix:1', old: 'high = mid - 1', new: 'high = mid' },
      { key: 'distractor', old: 'while low < high:', new: 'while low <= high:' },
    ],
  },
  {
    mainFile: 'insert.py',
    testFile: 'test_insert.py',
    edits: [
      { key: 'fix:0', old: 'high = mid', new: 'high = mid - 1' },
      { key: 'fix:1', old: 'return high', new: 'return low' },
      { key: 'distractor', old: 'while low <= high:', new: 'while low < high:' },
    ],
  },
  {
    mainFile: 'rotated.py',
    testFile: 'test_rotated.py',
    edits: [
      { key: 'fix:0', old: 'a[low] < a[mid]', new: 'a[low] <= a[mid]' },
      { key: 'fix:1', old: 'target < a[high]', new: 'target <= a[high]' },
      { key: 'distractor', old: 'a[low] <= target < a[mid]', new: 'a[low] < target < a[mid]' },
    ],
  },
];

/** One action the policy can take, as a tool call; `key` names it for steering and for the weights. */
export interface Move {
  key: string;
  tool: string;
  args: Record<string, unknown>;
}

/** The tool the policy sometimes calls although the harness does not offer it. */
const NONEXISTENT_TOOL = { tool: 'run_shell', args: { command: 'python3 -m pytest -q' } } as const;

/** Every move, in a fixed order, for one file. */
export function movesFor(rep: Repertoire): Move[] {
  const edit = (key: string, old: string, replacement: string): Move => ({
    key,
    tool: 'edit',
    args: { path: rep.mainFile, old, new: replacement },
  });
  return [
    { key: 'read', tool: 'read_file', args: { path: rep.mainFile } },
    { key: 'read_tests', tool: 'read_file', args: { path: rep.testFile } },
    ...rep.edits.map((e) => edit(e.key, e.old, e.new)),
    ...rep.edits.map((e) => edit(`revert:${e.key}`, e.new, e.old)),
    { key: 'run_tests', tool: 'run_tests', args: {} },
    { key: 'finish', tool: 'finish', args: {} },
    { key: 'invalid', tool: NONEXISTENT_TOOL.tool, args: { ...NONEXISTENT_TOOL.args } },
  ];
}

/** The repertoire for the file the task prompt names, found in the decoded context. */
export function repertoireFor(contextText: string): Repertoire | null {
  const firstUser = contextText.indexOf('<|im_start|>user\n');
  const prompt = firstUser < 0 ? '' : contextText.slice(firstUser, contextText.indexOf('<|im_end|>', firstUser));
  return REPERTOIRES.find((r) => prompt.includes(`has ${r.mainFile} `)) ?? null;
}
