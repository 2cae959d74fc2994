/** Row height in px: fixed, so the virtualizer never measures. Keep in step with `.runs` in runList.css. */
export const ROW_HEIGHT = 28;
export const HEADER_HEIGHT = 30;

export interface Column {
  id: string;
  label: string;
  /** A CSS grid track. */
  width: string;
  align?: 'end';
  title?: string;
}

const COLUMNS: Column[] = [
  { id: 'file', label: 'File', width: 'minmax(110px, 0.8fr)' },
  { id: 'line', label: 'Line', width: '60px', align: 'end', title: 'Line number in its file' },
  { id: 'rollout', label: 'Rollout', width: 'minmax(140px, 1.3fr)', title: 'rollout_id · attempt_id' },
  { id: 'task', label: 'Task', width: 'minmax(110px, 1.1fr)' },
  { id: 'group', label: 'Group', width: 'minmax(110px, 1.1fr)' },
  { id: 'termination', label: 'Termination', width: '140px' },
  { id: 'reward', label: 'Reward', width: '64px', align: 'end' },
  { id: 'steps', label: 'Steps', width: '52px', align: 'end', title: 'Executed tool calls' },
  { id: 'regressions', label: 'Regr.', width: '52px', align: 'end', title: 'Regressions: steps that made the state worse' },
  { id: 'errors', label: 'Errors', width: '56px', align: 'end', title: 'Error findings' },
  { id: 'warnings', label: 'Warn.', width: '56px', align: 'end', title: 'Warning findings' },
];

/** The file column appears only when rows come from more than one file. */
export function visibleColumns(multiFile: boolean): Column[] {
  return multiFile ? COLUMNS : COLUMNS.filter((c) => c.id !== 'file');
}

export function gridTemplate(columns: readonly Column[]): string {
  return columns.map((c) => c.width).join(' ');
}
