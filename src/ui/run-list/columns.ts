import type { RunSortKey } from '../../state';
import { advantageMode } from '../shared/advantageMode';

/** Row height in px: fixed, so the virtualizer never measures. Keep in step with `.runs` in runList.css. */
export const ROW_HEIGHT = 28;
export const HEADER_HEIGHT = 30;

export interface Column {
  /** Also the sort key the header sorts by. */
  id: RunSortKey;
  label: string;
  /** A CSS grid track. */
  width: string;
  align?: 'end';
  title?: string;
}

const COLUMNS: Column[] = [
  { id: 'file', label: 'File', width: 'minmax(110px, 0.8fr)' },
  { id: 'line', label: 'Line', width: '52px', align: 'end', title: 'Line number in its file' },
  { id: 'rollout', label: 'Rollout', width: 'minmax(120px, 1.3fr)', title: 'rollout_id · attempt_id' },
  { id: 'task', label: 'Task', width: 'minmax(100px, 1fr)' },
  { id: 'group', label: 'Group', width: 'minmax(100px, 1.1fr)' },
  { id: 'policy', label: 'Policy', width: 'minmax(56px, 0.5fr)', title: 'policy_version: the behaviour policy that sampled it' },
  { id: 'termination', label: 'Termination', width: '136px' },
  { id: 'reward', label: 'Reward', width: '66px', align: 'end' },
  { id: 'advantage', label: 'Adv.', width: '74px', align: 'end' },
  { id: 'steps', label: 'Steps', width: '52px', align: 'end', title: 'Executed tool calls' },
  { id: 'regressions', label: 'Regr.', width: '52px', align: 'end', title: 'Regressions: steps that made the state worse' },
  { id: 'errors', label: 'Errors', width: '56px', align: 'end', title: 'Error findings' },
  { id: 'warnings', label: 'Warn.', width: '56px', align: 'end', title: 'Warning findings' },
];

/** §10's mismatch, shown when some rollout has a training record. */
const MISMATCH_COLUMNS: Column[] = [
  {
    id: 'mismatch',
    label: 'max |d|',
    width: '70px',
    align: 'end',
    title: 'Training-inference mismatch: max |trainer − sampler log-prob| (nats)',
  },
  { id: 'kl', label: 'KL k3', width: '70px', align: 'end', title: 'k3 estimate of KL(behaviour ‖ trainer) over the trained tokens' },
];

/**
 * Columns the detail pane repeats: left out while it is open, so ids and the numbers keep their width;
 * on a narrow screen the group too.
 */
const IN_DETAIL: ReadonlySet<RunSortKey> = new Set(['task', 'policy']);
const IN_DETAIL_NARROW: ReadonlySet<RunSortKey> = new Set(['task', 'policy', 'group']);

/** Which of the pane's columns the table keeps: all without the pane, fewer beside it. */
export type DetailPane = 'closed' | 'open' | 'open-narrow';

/**
 * The file column appears only when rows come from more than one file; columns the detail pane shows
 * step aside while it is open; the advantage column names its mode.
 */
export function visibleColumns(multiFile: boolean, drGrpo: boolean, pane: DetailPane = 'closed', mismatch = false): Column[] {
  const mode = advantageMode(drGrpo);
  const hidden = pane === 'open' ? IN_DETAIL : pane === 'open-narrow' ? IN_DETAIL_NARROW : null;
  return [...COLUMNS, ...(mismatch && pane === 'closed' ? MISMATCH_COLUMNS : mismatch ? MISMATCH_COLUMNS.slice(0, 1) : [])].flatMap((c) => {
    if (c.id === 'file' && !multiFile) return [];
    if (hidden?.has(c.id)) return [];
    if (c.id !== 'advantage') return [c];
    return [{ ...c, label: drGrpo ? 'Adv. Dr.' : 'Adv.', title: `Advantage in its group, ${mode.label}: ${mode.formula}` }];
  });
}

export function gridTemplate(columns: readonly Column[]): string {
  return columns.map((c) => c.width).join(' ');
}

/** The sum of the columns' minimum widths in px: below it the table scrolls sideways rather than squeeze. */
export function minTableWidth(columns: readonly Column[]): number {
  return columns.reduce((sum, c) => sum + Number(/(\d+)px/.exec(c.width)?.[1] ?? 0), 0);
}
