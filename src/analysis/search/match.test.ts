import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Rollout } from '../../format';
import { buildFinding, buildRollout, buildSegment, buildStep, buildSummary, toJsonl } from '../../testing/builders';
import { contentMatcher, HIT_COUNT_CAP, matchRow } from './match';
import { parseQuery } from './query';
import { RecordScanner, type SearchMatch } from './scan';

const record = buildRollout({
  task: { prompt: 'Fix the binary search in search.py' },
  segments: [
    buildSegment({
      tool_call_id: 'c-1',
      generated_tokens: ['I', ' will', ' read'],
      generated_ids: [10, 11, 12],
      old_logprobs: [-1, -1, -1],
    }),
    buildSegment({
      tool_call_id: 'c-2',
      input_ids: [1, 2, 3, 10, 11, 12, 7, 8],
      input_tokens: ['s', 'y', 's', 'I', ' will', ' read', ' Trace', 'back'],
    }),
  ],
  steps: [
    buildStep({
      tool_call_id: 'c-1',
      tool: 'read_file',
      args: { path: 'search.py' },
      observation: { status: 'ok', text: 'def search(xs, x):\n  pass' },
    }),
    buildStep({
      tool_call_id: 'c-2',
      tool: 'run_shell',
      args: { cmd: 'pytest' },
      observation: { status: 'timeout', text: 'Traceback (most recent call last)' },
    }),
  ],
  grading: { verdict: 'fail', artifact: 'diff --git a/search.py' },
  training_step: 120,
} as Partial<Rollout>);

const hitsOf = (q: string, r: Rollout = record) => contentMatcher(parseQuery(q).clauses, 50).match(r);

describe('contentMatcher', () => {
  it('finds text in every field, with step, segment and token', () => {
    const m = hitsOf('search');
    expect(m?.hits.map((h) => [h.field, h.step, h.segment])).toEqual([
      ['prompt', null, null],
      ['prompt', null, null],
      ['action', 1, null],
      ['observation', 1, null],
      ['artifact', null, null],
    ]);
    expect(hitsOf('will')?.hits.map((h) => [h.field, h.segment, h.token, h.step])).toEqual([['generated', 0, 1, 1]]);
  });

  it('searches a context only past what the previous turn already holds', () => {
    // "Traceback" is in segment 1's new context (tokens 6-7) and in step 2's observation.
    const m = hitsOf('Traceback');
    expect(m?.hits.map((h) => [h.field, h.segment, h.token, h.step])).toEqual([
      ['context', 1, 6, null],
      ['observation', null, null, 2],
    ]);
    expect(hitsOf('sys')).toBeNull();
  });

  it('snippets carry the match offsets, newlines as spaces', () => {
    const hit = hitsOf('pass')?.hits[0];
    expect(hit?.snippet).toBe('def search(xs, x):   pass');
    const [from, to] = hit?.match ?? [0, 0];
    expect(hit?.snippet.slice(from, to)).toBe('pass');
  });

  it('follows smart case and regex flags', () => {
    expect(hitsOf('traceback')?.count).toBe(2);
    expect(hitsOf('TRACEBACK')).toBeNull();
    expect(hitsOf('/trace\\w+/')).toBeNull();
    expect(hitsOf('/trace\\w+/i')?.count).toBe(2);
  });

  it('tool: and status: hit the steps they name; * is a wildcard', () => {
    expect(hitsOf('tool:run_shell')?.hits.map((h) => h.step)).toEqual([2]);
    expect(hitsOf('tool:run')).toBeNull();
    expect(hitsOf('tool:run*')?.count).toBe(1);
    expect(hitsOf('status:timeout')?.hits[0]?.step).toBe(2);
  });

  it('step compares the training step; policy and has: read the record', () => {
    expect(hitsOf('step>=100')).not.toBeNull();
    expect(hitsOf('step<100')).toBeNull();
    expect(hitsOf('policy:v-1 has:tokens has:artifact')).not.toBeNull();
    expect(hitsOf('has:training')).toBeNull();
  });

  it('all clauses must hold; a negated one must not', () => {
    expect(hitsOf('pytest Traceback')?.count).toBe(3);
    expect(hitsOf('pytest -Traceback')).toBeNull();
    expect(hitsOf('-nowhere')?.count).toBe(0);
  });

  it('counts hits up to the cap', () => {
    const text = 'x '.repeat(HIT_COUNT_CAP + 5);
    const r = buildRollout({ steps: [buildStep({ observation: { text } })] });
    expect(hitsOf('x', r)?.count).toBe(HIT_COUNT_CAP);
  });
});

describe('hit order', () => {
  it('lists hits in reading order: each generation, then the step it called (issue 31)', () => {
    const seg = (id: string, word: string) =>
      buildSegment({ tool_call_id: id, generated_tokens: [word], generated_ids: [9], old_logprobs: [-1] });
    const r = buildRollout({
      segments: [seg('c-1', 'zeta one'), seg('c-2', 'zeta two')],
      steps: [
        buildStep({ tool_call_id: 'c-1', tool: 'run', args: {}, observation: { status: 'ok', text: 'zeta obs one' } }),
        buildStep({ tool_call_id: 'c-2', tool: 'run', args: {}, observation: { status: 'ok', text: 'zeta obs two' } }),
        buildStep({ tool_call_id: 'c-9', tool: 'run', args: {}, observation: { status: 'ok', text: 'zeta unclaimed' } }),
      ],
    });
    const hits = contentMatcher(parseQuery('zeta').clauses, 10).match(r)?.hits ?? [];
    expect(hits.map((h) => [h.field, h.step])).toEqual([
      ['generated', 1],
      ['observation', 1],
      ['generated', 2],
      ['observation', 2],
      ['observation', 3],
    ]);
  });
});

describe('matchRow', () => {
  const row = buildSummary({
    termination: 'infra_failure',
    reward: 0.75,
    regressions: [{ step: 2, kind: 'revert', of_step: 1 }],
    findings: [buildFinding('E_TRAINING_MASK')],
  });
  const holds = (q: string) => matchRow(parseQuery(q).clauses, row);
  it('reads termination, findings, reward, ids and has: from the summary', () => {
    expect(holds('term:infra_failure code:E_TRAINING_MASK reward>0.5 reward<=0.75 has:regression has:error')).toBe(true);
    expect(holds('term:finished')).toBe(false);
    expect(holds('code:w_*')).toBe(false);
    expect(holds(`task:${row.task_id} id:${row.rollout_id} group:*`)).toBe(true);
    expect(holds('reward:0')).toBe(false);
    expect(holds('has:warning')).toBe(false);
  });
  it('ignores content clauses (the scanner decides them)', () => {
    expect(holds('Traceback tool:edit')).toBe(true);
  });
  it('counts a run index row’s regressions as the list does (issue 31: has:regression matched none in run mode)', () => {
    const indexed = buildSummary({ regressions: [], indexed: { errors: 0, warnings: 0, regressions: 3 } });
    expect(matchRow(parseQuery('has:regression').clauses, indexed)).toBe(true);
    expect(matchRow(parseQuery('-has:regression').clauses, indexed)).toBe(false);
    const none = buildSummary({ regressions: [], indexed: { errors: 0, warnings: 0, regressions: 0 } });
    expect(matchRow(parseQuery('has:regression').clauses, none)).toBe(false);
  });
});

describe('negation', () => {
  const words = ['search', 'Traceback', 'tool:read_file', 'status:ok', 'step>100', 'has:training', '/x\\)/', 'pass', 'zzz'];
  const records: Rollout[] = [
    record,
    buildRollout(),
    buildRollout({ steps: [buildStep({ observation: { status: 'ok', text: 'pass' } })] }),
  ];
  it('-t matches exactly the records t does not', () => {
    fc.assert(
      fc.property(fc.constantFrom(...words), (t) => {
        for (const r of records) expect(hitsOf(`-${t}`, r) === null).toBe(hitsOf(t, r) !== null);
      }),
    );
  });
});

describe('RecordScanner', () => {
  const scan = (q: string, text: string, chunk = 7) => {
    const out: SearchMatch[] = [];
    const s = new RecordScanner('f.jsonl', parseQuery(q).clauses, {}, (m) => out.push(m));
    const bytes = new TextEncoder().encode(text);
    for (let i = 0; i < bytes.length; i += chunk) s.push(bytes.subarray(i, i + chunk));
    s.end();
    return { out, records: s.records };
  };
  const lines = toJsonl([
    buildRollout({ rollout_id: 'a', steps: [buildStep({ observation: { text: 'all good' } })] }),
    buildRollout({ rollout_id: 'b', steps: [buildStep({ observation: { text: 'Traceback here' } })] }),
    buildRollout({ rollout_id: 'c', steps: [buildStep({ observation: { text: 'Trace\u0062ack' } })] }),
  ]);

  it('names matches by file and line, across any chunking', () => {
    for (const chunk of [1, 7, 10_000]) {
      const { out, records } = scan('traceback', lines, chunk);
      expect(out.map((m) => m.line)).toEqual([2, 3]);
      expect(scan('tool:read_file', lines, chunk).out.map((m) => m.line)).toEqual([1, 2, 3]);
      expect(records).toBe(3);
    }
  });

  it('finds text a writer escaped (\\u) that the raw-line filter cannot see', () => {
    const escaped = `${JSON.stringify(buildRollout({ steps: [buildStep({ observation: { text: 'x' } })] })).replace('"x"', '"\\u0054raceback"')}\n`;
    expect(scan('Traceback', escaped).out.map((m) => m.line)).toEqual([1]);
  });

  it('a bad line spoils only itself', () => {
    expect(scan('traceback', `{not json\n${lines}`).out.map((m) => m.line)).toEqual([3, 4]);
  });
});
