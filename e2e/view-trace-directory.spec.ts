import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { expectLoaded, rolloutRows, screenshot } from './support/app';
import { stepRow, stepsList } from './support/steps';
import { startView } from './support/view';

/* An OpenHands SDK conversation folder as the SDK persists it (docs/formats.md, "Directories as traces"). */
const EVENT = '0d063a22-20db-40db-93f0-4edbc42b2ff5';
const eventName = (k: number) => `events/event-${String(k).padStart(5, '0')}-${EVENT}.json`;
const terminalCall = (k: number, command: string) => ({
  id: `a-${k}`,
  source: 'agent',
  thought: [],
  action: { command, is_input: false, reset: false, kind: 'TerminalAction' },
  tool_name: 'terminal',
  tool_call_id: `call-${k}`,
  tool_call: { id: `call-${k}`, name: 'terminal', arguments: JSON.stringify({ command }), origin: 'completion' },
  llm_response_id: `resp-${k}`,
  kind: 'ActionEvent',
});
const terminalResult = (k: number, text: string) => ({
  id: `o-${k}`,
  source: 'environment',
  tool_name: 'terminal',
  tool_call_id: `call-${k}`,
  observation: { content: [{ type: 'text', text }], is_error: false, exit_code: 0, kind: 'TerminalObservation' },
  action_id: `a-${k}`,
  kind: 'ObservationEvent',
});
const finish = (k: number) => ({
  id: `a-${k}`,
  source: 'agent',
  thought: [],
  action: { message: 'Wrote the directory to out.txt.', kind: 'FinishAction' },
  tool_name: 'finish',
  tool_call_id: `call-${k}`,
  tool_call: { id: `call-${k}`, name: 'finish', arguments: '{"message":"Wrote the directory to out.txt."}', origin: 'completion' },
  llm_response_id: `resp-${k}`,
  kind: 'ActionEvent',
});

function writeJson(dir: string, path: string, value: unknown): void {
  const to = join(dir, ...path.split('/'));
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, JSON.stringify(value, null, 2));
}

test('trajscope view of an OpenHands conversation folder shows it as one source of one rollout, with its steps', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const root = mkdtempSync(join(tmpdir(), 'trajscope-e2e-tracedir-'));
  const dir = join(root, 'conversation-1');
  writeJson(dir, 'base_state.json', { agent: { llm: { model: 'openai/gpt-4o-mini' } }, execution_status: 'finished' });
  writeJson(dir, eventName(0), {
    kind: 'MessageEvent',
    source: 'user',
    llm_message: { role: 'user', content: 'Write the current directory to out.txt.' },
  });
  writeJson(dir, eventName(1), terminalCall(1, 'pwd > out.txt'));
  writeJson(dir, eventName(2), terminalResult(1, ''));
  writeJson(dir, eventName(3), terminalCall(2, 'cat out.txt'));
  writeJson(dir, eventName(4), terminalResult(2, '/workspace'));
  writeJson(dir, eventName(5), finish(3));
  writeJson(dir, eventName(6), {
    id: 'o-3',
    source: 'environment',
    tool_name: 'finish',
    tool_call_id: 'call-3',
    observation: { content: [{ type: 'text', text: 'Wrote the directory to out.txt.' }], is_error: false, kind: 'FinishObservation' },
    action_id: 'a-3',
    kind: 'ObservationEvent',
  });
  let server: ChildProcess | undefined;
  try {
    const base = await startView([dir], (child) => {
      server = child;
    });
    await page.goto(base);
    await expectLoaded(page, 1, 30_000);
    // One source, named for the folder and its layout; none of its event files.
    await expect(page.getByText('conversation-1 (OpenHands SDK conversation).jsonl').first()).toBeVisible();
    await expect(page.getByText(/event-00000/)).toHaveCount(0);
    await expect(rolloutRows(page)).toHaveCount(1);
    await rolloutRows(page).first().click();
    await page.getByRole('button', { name: 'Open inspector' }).click();
    await expect(stepsList(page)).toBeVisible();
    await expect(stepsList(page).getByRole('listitem', { name: /^Step \d+$/ })).toHaveCount(3);
    await expect(stepRow(page, 1)).toContainText('pwd > out.txt');
    await expect(stepRow(page, 2)).toContainText('/workspace');
    await expect(stepRow(page, 3)).toContainText('finish');
    await screenshot(page, testInfo, 'view-trace-directory');
  } finally {
    server?.kill('SIGTERM');
    rmSync(root, { recursive: true, force: true });
  }
});
