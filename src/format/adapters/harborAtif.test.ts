import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fetchedFile, fetchedMissing, fetchedPaths } from '../../testing/fetched';
import { recordTranscript } from '../additions';
import type { Rollout } from '../index';
import type { LineResult } from '../jsonl';
import { parseText } from './fixtures';
import { REAL_DATA_MISSING, readReal } from './fixtures/sharedData';

// biome-ignore lint/suspicious/noExplicitAny: converted records are untyped JSON; the assertions check their shape
type Json = Record<string, any>;

const REAL = join(import.meta.dirname, '../../../../shared/real-data');
const BIN = join(import.meta.dirname, '../../../bin/trajscope.mjs');

/** `trajscope lint --json FILE...`, as a user runs it (src/format tests import no analysis): exit code and report. */
async function lintFiles(paths: readonly string[]): Promise<{ code: number; report: Json }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'lint', '--json', ...paths], { maxBuffer: 64 << 20 });
    return { code: 0, report: JSON.parse(stdout) };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, report: JSON.parse(err.stdout) };
  }
}

/** Calls a segment names that no step executed: W_ORPHAN_CALL's first half, on the converted record. */
function unstepped(r: Json): string[] {
  const stepped = new Set((r.steps ?? []).map((s: Json) => s.tool_call_id));
  return r.segments
    .flatMap((s: Json) => s.tool_call_ids ?? (s.tool_call_id === null ? [] : [s.tool_call_id]))
    .filter((id: string) => !stepped.has(id));
}

function records(results: readonly LineResult[]): Json[] {
  return results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record as Json] : []));
}

describe.skipIf(REAL_DATA_MISSING !== null)(`Harbor ATIF on real files ${REAL_DATA_MISSING ?? ''}`, () => {
  it('terminus-2 with token ids: each agent step a real segment (prompt, completion, logprobs), each call a step', () => {
    const path = 'harbor-golden/hello-world-context-summarization.trajectory.json';
    const { rollouts, errors, format } = readReal(path);
    expect(errors).toEqual([]);
    expect(format).toBe('harbor-atif');
    expect(rollouts).toHaveLength(1);
    const r = rollouts[0]?.record;
    expect(r).toMatchObject({
      // Harbor's test placeholder is no identity: the location stands in, the placeholder is kept.
      rollout_id: `${path}:1`,
      extra: { session_id: 'NORMALIZED_SESSION_ID' },
      task_id: `${path}:1`,
      policy_version: 'openai/gpt-4o',
      termination: 'unknown',
      reward: null,
    });
    expect(r?.segments).toHaveLength(7);
    const first = r?.segments[0];
    expect([first?.input_ids.length, first?.input_ids[0], first?.input_ids.at(-1)]).toEqual([682, 100, 781]);
    expect([first?.generated_ids.length, first?.generated_ids[0], first?.generated_ids.at(-1)]).toEqual([60, 1000, 1059]);
    expect(first?.old_logprobs.slice(0, 2)).toEqual([-0.1, -0.2]);
    expect(first?.old_logprobs).toHaveLength(60);
    expect([r?.segments[3]?.input_ids.length, r?.segments[3]?.generated_ids.length]).toEqual([1700, 420]);
    expect(r?.steps?.map((s) => s.tool_call_id)).toEqual([
      'call_0_1',
      'call_1_1',
      'call_2_1',
      'call_3_1',
      'call_4_1',
      'call_5_task_complete',
      'call_6_task_complete',
    ]);
    expect(r?.steps?.[0]).toMatchObject({ tool: 'bash_command', args: { keystrokes: 'mkdir test_dir\n', duration: 0.1 } });
  });

  it('without token ids: text segments; an agent step without calls keeps its parse-error feedback in the transcript', () => {
    const { rollouts, errors } = readReal('harbor-golden/hello-world-invalid-json.trajectory.json');
    expect(errors).toEqual([]);
    const r = rollouts[0]?.record;
    expect(r?.segments).toHaveLength(4);
    expect(r?.segments.every((s) => s.generated_ids.length === 0)).toBe(true);
    expect(r?.segments[0]?.tool_call_id).toBeNull();
    expect(r?.steps?.map((s) => s.tool_call_id)).toEqual(['call_1_1', 'call_2_task_complete', 'call_3_task_complete']);
    const transcript = recordTranscript(r as NonNullable<typeof r>);
    expect(transcript?.[1]?.reasoning).toContain('straightforward');
    expect(transcript?.[2]?.content).toContain('Previous response had parsing errors');
  });

  it('openhands agent: a result names its call by source_call_id; the finish call has no observation', () => {
    const { rollouts, errors } = readReal('harbor-golden/openhands__hello-world.trajectory.json');
    expect(errors).toEqual([]);
    const r = rollouts[0]?.record;
    expect(r?.segments.map((s) => s.tool_call_id)).toEqual(['call_fake_1', 'call_fake_2']);
    expect(r?.steps).toEqual([
      {
        tool_call_id: 'call_fake_1',
        tool: 'str_replace_editor',
        args: { command: 'create', path: '/app/hello.txt', file_text: 'Hello, world!', security_risk: 'LOW' },
        observation: { text: 'File created successfully at: /app/hello.txt' },
      },
    ]);
  });
});

describe.skipIf(REAL_DATA_MISSING !== null)(`Harbor golden files linted together ${REAL_DATA_MISSING ?? ''}`, () => {
  it('no E_DUPLICATE_ROLLOUT: all three carry the placeholder session_id NORMALIZED_SESSION_ID', async () => {
    const names = [
      'hello-world-context-summarization.trajectory.json',
      'hello-world-invalid-json.trajectory.json',
      'openhands__hello-world.trajectory.json',
    ];
    const paths = names.map((n) => join(REAL, 'harbor-golden', n));
    for (const n of names)
      expect((readReal(`harbor-golden/${n}`).rollouts[0]?.record.extra as Json | undefined)?.session_id).toBe('NORMALIZED_SESSION_ID');
    const { code, report } = await lintFiles(paths);
    expect(report.rollouts.map((r: Json) => r.rollout_id)).toEqual(paths.map((p) => `${p}:1`));
    expect(report.rollouts.flatMap((r: Json) => r.findings.map((f: Json) => f.code))).not.toContain('E_DUPLICATE_ROLLOUT');
    // Before issue 29: 3 errors, one E_DUPLICATE_ROLLOUT per file, and exit 1. The warnings are the files' own.
    expect(report.summary).toMatchObject({ rollouts: 3, errors: 0, warnings: 13 });
    expect(code).toBe(0);
  }, 60_000);
});

/** An ATIF document as Harbor writes it (pretty-printed), read through the shared parser. */
function readAtif(doc: Json, name = 'trajectory.json'): LineResult[] {
  return parseText(JSON.stringify(doc, null, 2), name).results;
}

/** A Terminus JSON response, as the terminus-json-plain prompt asks for it. */
function terminus(commands: unknown[], more: Json = {}): string {
  return JSON.stringify({ analysis: 'The terminal is ready.', plan: 'Run the commands.', commands, ...more }, null, 2);
}

/*
 * Written from Harbor's terminus_2.py and terminus_json_plain_parser.py (docs/formats.md, Harbor): with
 * `trajectory_config.raw_content` the agent step keeps the model's JSON text and no `tool_calls`; the terminal
 * output after the batch is the step's one observation result, without `source_call_id`.
 */
function rawContentRun(message: string, extraStep: Json = {}): Json {
  return {
    schema_version: 'ATIF-v1.5',
    session_id: '0b5a4f8e-6f0d-4a51-9d1e-2c7b4f0d9e11',
    agent: { name: 'terminus-2', version: '2.0.0', model_name: 'openai/gpt-4o', extra: { parser: 'json' } },
    steps: [
      { step_id: 1, source: 'user', message: 'Create hello.txt with "Hello, world!" as the content.' },
      {
        step_id: 2,
        source: 'agent',
        message,
        observation: { results: [{ content: 'New Terminal Output:\n\nroot@c:/app# ' }] },
        ...extraStep,
      },
    ],
  };
}

describe('Harbor ATIF: Terminus commands in the message text (raw_content, continuations)', () => {
  it('a batch of commands and task_complete: one step each, marked as read from text, the output on the last', () => {
    const message = terminus(
      [
        { keystrokes: "printf 'Hello, world!\\n' > hello.txt\n", duration: 0.1 },
        { keystrokes: 'cat hello.txt\n', duration: 0.1 },
      ],
      { task_complete: true },
    );
    const [r] = records(readAtif(rawContentRun(message)));
    const at = 'trajectory.json:1/steps[1].message';
    expect(r?.rollout_id).toBe('0b5a4f8e-6f0d-4a51-9d1e-2c7b4f0d9e11');
    expect(r?.segments[0]).toMatchObject({
      tool_call_id: `${at}.commands[0]`,
      tool_call_ids: [`${at}.commands[0]`, `${at}.commands[1]`, `${at}.task_complete`],
      tool_call_id_is_locator: true,
      text: message,
    });
    expect(r?.steps).toEqual([
      {
        tool_call_id: `${at}.commands[0]`,
        tool_call_id_is_locator: true,
        tool: 'bash_command',
        args: { keystrokes: "printf 'Hello, world!\\n' > hello.txt\n", duration: 0.1 },
        extra: { read_from_text: true, output_with: `${at}.task_complete` },
      },
      {
        tool_call_id: `${at}.commands[1]`,
        tool_call_id_is_locator: true,
        tool: 'bash_command',
        args: { keystrokes: 'cat hello.txt\n', duration: 0.1 },
        extra: { read_from_text: true, output_with: `${at}.task_complete` },
      },
      {
        tool_call_id: `${at}.task_complete`,
        tool_call_id_is_locator: true,
        tool: 'mark_task_complete',
        args: {},
        observation: { text: 'New Terminal Output:\n\nroot@c:/app# ' },
        extra: { read_from_text: true },
      },
    ]);
    // The transcript keeps what the model wrote and read: text, then the terminal as the next user turn.
    const transcript = recordTranscript(r as Rollout);
    expect(transcript?.[1]?.tool_calls).toBeUndefined();
    expect(transcript?.[2]).toMatchObject({ role: 'user', content: 'New Terminal Output:\n\nroot@c:/app# ' });
    expect(unstepped(r as Json)).toEqual([]);
  });

  it('task_complete as the parser reads it: true, or the strings "true", "1", "yes"; false adds no call', () => {
    for (const [flag, steps] of [
      [true, 1],
      ['yes', 1],
      ['True', 1],
      [false, 0],
      ['no', 0],
    ] as const) {
      const [r] = records(readAtif(rawContentRun(terminus([], { task_complete: flag }))));
      expect(r?.steps?.map((s: Json) => s.tool) ?? [], String(flag)).toEqual(steps === 1 ? ['mark_task_complete'] : []);
    }
  });

  it('only the documented response is read: prose, a missing field or a bad command stay text', () => {
    const notRead = [
      'I will create the file now.',
      '{"analysis": "a", "plan": "b", "commands": [{"keystrokes": "ls\\n"}',
      JSON.stringify({ analysis: 'a', commands: [{ keystrokes: 'ls\n' }] }),
      JSON.stringify({ analysis: 'a', plan: 'b', commands: 'ls' }),
      terminus([{ keystrokes: ['l', 's'] }]),
      terminus([{ duration: 1 }]),
      `Here is my answer:\n${terminus([{ keystrokes: 'ls\n' }])}`,
    ];
    for (const message of notRead) {
      const [r] = records(readAtif(rawContentRun(message)));
      expect(r?.steps, message).toBeUndefined();
      expect(r?.segments[0]?.tool_call_id, message).toBeNull();
      expect(r?.segments[0]?.text, message).toBe(message);
    }
  });

  it('recorded tool_calls win over the text; a recorded batch shares its one output the same way', () => {
    const message = terminus([{ keystrokes: 'ls\n' }, { keystrokes: 'pwd\n' }]);
    const tool_calls = [
      { tool_call_id: 'call_0_1', function_name: 'bash_command', arguments: { keystrokes: 'ls\n', duration: 1 } },
      { tool_call_id: 'call_0_2', function_name: 'bash_command', arguments: { keystrokes: 'pwd\n', duration: 1 } },
    ];
    const [r] = records(readAtif(rawContentRun(message, { tool_calls })));
    expect(r?.steps).toEqual([
      { tool_call_id: 'call_0_1', tool: 'bash_command', args: { keystrokes: 'ls\n', duration: 1 }, extra: { output_with: 'call_0_2' } },
      {
        tool_call_id: 'call_0_2',
        tool: 'bash_command',
        args: { keystrokes: 'pwd\n', duration: 1 },
        observation: { text: 'New Terminal Output:\n\nroot@c:/app# ' },
      },
    ]);
    expect(recordTranscript(r as Rollout)?.[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_0_2' });
  });

  it("Harbor's placeholder session ids (main, summarization subagents) fall back to the location", () => {
    for (const id of ['NORMALIZED_SESSION_ID', 'NORMALIZED_SESSION_ID-summarization-1-summary', 'NORMALIZED_UUID']) {
      const [r] = records(readAtif({ ...rawContentRun('done'), session_id: id }, 'run/agent/trajectory.json'));
      expect(r?.rollout_id, id).toBe('run/agent/trajectory.json:1');
      expect(r?.extra?.session_id, id).toBe(id);
    }
    // A real id, even one naming a summarization subagent, is the rollout's.
    const sub = 'test-session-context-summarization-summarization-1-answers';
    const [r] = records(readAtif({ ...rawContentRun('done'), session_id: sub }));
    expect(r?.rollout_id).toBe(sub);
    expect(r?.extra?.session_id).toBeUndefined();
  });
});

/*
 * Harbor's own golden trajectories (tests/golden/, written by its trajectory writer against a fake LLM server),
 * read in place from the fetched copy sachiny0106/Xelron (a copy of laude-institute/harbor at 6cb22d1; the
 * upstream repository is not in the snapshot store). The linear-history test runs Terminus with raw_content:
 * its trajectory and continuation record no tool_calls, only the model's JSON text.
 */
const HARBOR = 'sachiny0106/Xelron';
const HARBOR_MISSING = fetchedMissing(HARBOR);
if (HARBOR_MISSING) console.info(HARBOR_MISSING);

describe.skipIf(HARBOR_MISSING !== null)(`Harbor golden trajectories in ${HARBOR} ${HARBOR_MISSING ?? ''}`, () => {
  const read = (path: string) => parseText(fetchedFile(HARBOR, path).toString('utf8'), path).results;
  const LINEAR = 'tests/golden/terminus_2/hello-world-context-summarization-linear-history.trajectory';

  it('the linear-history trajectory: 3 commands read from text (0 steps before), one per agent step', () => {
    const [r] = records(read(`${LINEAR}.json`));
    expect(r?.steps?.map((s: Json) => [s.tool, s.args?.keystrokes, s.extra?.read_from_text])).toEqual([
      ['bash_command', 'mkdir test_dir\n', true],
      ['bash_command', "echo 'test1' > test_dir/file1.txt\n", true],
      ['bash_command', "echo 'test2' > test_dir/file2.txt\n", true],
    ]);
    expect(r?.steps?.[0]?.observation.text).toBe('New Terminal Output:\n\nroot@CONTAINER_ID:/app# mkdir test_dir\n\n\n');
    expect(r?.extra?.continued_trajectory_ref).toBe('trajectory.cont-1.json');
  });

  it('its continuation (trajectory.cont-1.json): the handoff is context; 2 commands and 2 task_complete read from text', () => {
    const path = `${LINEAR}.cont-1.json`;
    const [r] = records(read(path));
    expect(r?.extra?.agent?.extra?.continuation_index).toBe(1);
    // Five agent steps: the copied questions (prose, no call) and four Terminus responses.
    expect(r?.segments.map((s: Json) => s.tool_call_id_is_locator ?? false)).toEqual([false, true, true, true, true]);
    expect(r?.steps?.map((s: Json) => [s.tool_call_id, s.tool, s.args])).toEqual([
      [`${path}:1/steps[4].message.commands[0]`, 'bash_command', { keystrokes: "printf 'Hello, world!\\n' > hello.txt\n", duration: 0.1 }],
      [`${path}:1/steps[5].message.commands[0]`, 'bash_command', { keystrokes: 'cat hello.txt\n', duration: 0.1 }],
      [`${path}:1/steps[6].message.task_complete`, 'mark_task_complete', {}],
      [`${path}:1/steps[7].message.task_complete`, 'mark_task_complete', {}],
    ]);
    expect(r?.steps?.[1]?.observation.text).toBe('New Terminal Output:\n\nroot@CONTAINER_ID:/app# cat hello.txt\nHello, world!\n\n\n');
    expect(unstepped(r as Json)).toEqual([]);
  });

  it('all 10 golden trajectories: 25 steps (18 before), 10 distinct rollout ids (one, 7 times, before)', () => {
    const paths = fetchedPaths(HARBOR, /^tests\/golden\/.*trajectory.*\.json$/);
    expect(paths).toHaveLength(10);
    const rollouts = paths.flatMap((p) => records(read(p)));
    expect(rollouts).toHaveLength(10);
    // E_DUPLICATE_ROLLOUT is keyed on (rollout_id, attempt_id): none repeats now.
    expect(new Set(rollouts.map((r) => JSON.stringify([r.rollout_id, r.attempt_id ?? null]))).size).toBe(10);
    expect(rollouts.filter((r) => r.extra?.session_id === 'NORMALIZED_SESSION_ID')).toHaveLength(7);
    expect(rollouts.reduce((n, r) => n + (r.steps?.length ?? 0), 0)).toBe(25);
  });
});
