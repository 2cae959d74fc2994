import type { Step } from '../../format';

/* Short words for one tool call and what came of it: box titles, arrow labels and narration. */

const MAX_LABEL = 48;

export function clip(text: string, max = MAX_LABEL): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

export function quote(text: string, max = MAX_LABEL): string {
  return `“${clip(text, max)}”`;
}

function argText(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** `edit(search.py)`, `run_tests()`: the call as a person would write it. */
export function callText(step: Pick<Step, 'tool' | 'args'>): string {
  const args = step.args ?? {};
  const main = argText(args.path) ?? argText(args.command) ?? argText(args.query) ?? argText(args.file);
  if (main !== null) return `${step.tool}(${clip(main, 28)})`;
  return Object.keys(args).length === 0 ? `${step.tool}()` : `${step.tool}(…)`;
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}

function testsText(step: Step): string | null {
  const t = step.tests;
  if (!t) return null;
  const parts = [`${t.passed?.length ?? 0} passed`];
  if (t.failed?.length) parts.push(`${t.failed.length} failed`);
  if (t.over_budget?.length) parts.push(`${t.over_budget.length} over budget`);
  return parts.join(', ');
}

/** What the observation says, short enough for an arrow's label. */
export function observationText(step: Step): string {
  const tests = testsText(step);
  if (tests !== null) return tests;
  const text = step.observation?.text ?? '';
  if (step.tool === 'read_file' && step.observation?.status !== 'error') {
    const path = argText(step.args?.path);
    return `${path ?? 'file'}: ${lineCount(text)} lines`;
  }
  if (text === '') return step.observation?.status ?? 'no text';
  return clip(text.split('\n')[0] ?? text);
}

export function executeCaption(step: Step, call: string): string {
  const status = step.observation?.status;
  const failed = status === 'error' || status === 'timeout';
  switch (step.tool) {
    case 'read_file':
      return failed
        ? `The harness executes ${call}, and the environment answers with an error.`
        : `The harness executes ${call}: the environment reads the file from its state.`;
    case 'edit': {
      const old = argText(step.args?.old);
      const next = argText(step.args?.new);
      const change = old !== null && next !== null ? `: ${quote(old, 30)} → ${quote(next, 30)}` : '';
      return failed
        ? `The harness executes ${call}, but the edit fails: the environment's file does not change.`
        : `The harness executes ${call} — the environment's file changes${change}.`;
    }
    case 'run_tests': {
      const tests = testsText(step);
      return `The harness executes ${call}: the environment runs the public dev tests${tests ? ` (${tests})` : ''}.`;
    }
    case 'finish':
      return `The harness executes ${call}: the environment's current diff becomes the submitted artifact.`;
    default:
      return `The harness executes ${call} in the environment.`;
  }
}

/** "+3 −1" for a unified diff, else its line count. */
export function diffStat(artifact: string | undefined): string | null {
  if (artifact === undefined) return null;
  let add = 0;
  let del = 0;
  for (const line of artifact.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) add++;
    else if (line.startsWith('-') && !line.startsWith('---')) del++;
  }
  return add + del > 0 ? `+${add} −${del}` : `${lineCount(artifact)} lines`;
}

/** An execution's status as the third line of its box: only when it is not "ok". */
export function statusLine(step: Step): string | null {
  const status = step.observation?.status;
  return status && status !== 'ok' ? status.replace(/_/g, ' ') : null;
}
