import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A coding task: the files of its repository (what every sandbox starts from), the prompt the model
 * gets, and the private tests only the grader reads. The Python sources are text assets beside this
 * file: `<id>/repo/` is copied into sandboxes, `<id>/private/` never is.
 */
export interface Task {
  id: string;
  /** The file holding the code to fix, and the public dev tests beside it. */
  mainFile: string;
  testFile: string;
  prompt: string;
  contract: string;
  /** Repository files by name, in name order. */
  files: ReadonlyMap<string, string>;
  /** Absolute path of the private tests; read by the grader only. */
  privateTestsPath: string;
}

interface TaskText {
  id: string;
  mainFile: string;
  testFile: string;
  signature: string;
  contract: string;
}

const TEXTS: TaskText[] = [
  {
    id: 'binary-search-001',
    mainFile: 'search.py',
    testFile: 'test_search.py',
    signature: 'search(a, target)',
    contract: 'The input is sorted and has no duplicates; return the index of target if it is found, else -1.',
  },
  {
    id: 'lower-bound-001',
    mainFile: 'bounds.py',
    testFile: 'test_bounds.py',
    signature: 'lower_bound(a, target)',
    contract: 'The input is sorted (duplicates allowed); return the first index i with a[i] >= target, or len(a) if there is none.',
  },
  {
    id: 'insert-position-001',
    mainFile: 'insert.py',
    testFile: 'test_insert.py',
    signature: 'search_insert(a, target)',
    contract:
      'The input is sorted and has no duplicates; return the index of target if it is found, else the index where it would be inserted to keep the order.',
  },
  {
    id: 'rotated-search-001',
    mainFile: 'rotated.py',
    testFile: 'test_rotated.py',
    signature: 'search_rotated(a, target)',
    contract:
      'The input is a sorted list without duplicates rotated by an unknown amount; return the index of target if it is found, else -1.',
  },
];

function promptOf(t: TaskText): string {
  return (
    `The repository has ${t.mainFile} with a function ${t.signature}. Contract: ${t.contract} ` +
    `On some inputs it returns a wrong answer or never stops. Fix ${t.mainFile}. ` +
    `The public dev tests are in ${t.testFile}; run_tests runs them. Call finish when you are done: ` +
    'your change is then checked by tests you cannot see.'
  );
}

function load(t: TaskText): Task {
  const dir = new URL(`./${t.id}/`, import.meta.url);
  const repo = new URL('repo/', dir);
  const names = readdirSync(repo).sort();
  const files = new Map(names.map((n) => [n, readFileSync(new URL(n, repo), 'utf8')] as const));
  return {
    id: t.id,
    mainFile: t.mainFile,
    testFile: t.testFile,
    prompt: promptOf(t),
    contract: t.contract,
    files,
    privateTestsPath: fileURLToPath(new URL('private/test_private.py', dir)),
  };
}

/** The four tasks, in a fixed order; binary-search-001 is the design article's task. */
export const TASKS: readonly Task[] = TEXTS.map(load);

export function taskById(id: string): Task {
  const t = TASKS.find((x) => x.id === id);
  if (!t) throw new Error(`unknown task ${id}`);
  return t;
}
