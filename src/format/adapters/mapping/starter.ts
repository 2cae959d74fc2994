/** A starting mapping for a file: the first record's fields, placed where their names suggest. */
export function starterMapping(head: Uint8Array): string {
  const text = new TextDecoder().decode(head.subarray(0, Math.min(head.length, 64 * 1024)));
  const firstLine = text.split('\n').find((l) => l.trim().startsWith('{')) ?? '';
  let keys: string[] = [];
  try {
    const value: unknown = JSON.parse(firstLine);
    if (value && typeof value === 'object' && !Array.isArray(value)) keys = Object.keys(value);
  } catch {
    // not one JSON object per line: the person fills the paths in
  }
  const pick = (...names: string[]) => keys.find((k) => names.includes(k.toLowerCase()));
  const draft: Record<string, unknown> = {};
  const set = (field: string, key: string | undefined) => {
    if (key !== undefined) draft[field] = key;
  };
  set('rollout_id', pick('rollout_id', 'id', 'uid', 'run_id', 'episode', 'episode_id', 'trajectory_id'));
  set('task_id', pick('task_id', 'task', 'instance_id', 'problem_id', 'prompt_id', 'example_id'));
  set('reward', pick('reward', 'score', 'return', 'success'));
  const status = pick('status', 'outcome', 'termination', 'finish_reason', 'exit_status', 'result');
  if (status !== undefined) Object.assign(draft, { status, status_map: { CHANGE_ME: 'finished' } });
  const messages = pick('messages', 'conversation', 'chat', 'history', 'dialog');
  const turns = pick('turns', 'steps', 'trajectory', 'actions');
  if (messages !== undefined) draft.messages = { path: messages };
  else if (turns !== undefined) draft.turns = { path: turns, output: 'CHANGE_ME', tool_calls: 'CHANGE_ME', observation: 'CHANGE_ME' };
  return JSON.stringify(draft, null, 2);
}
