import type { Repertoire } from './repertoire';

/** What the policy takes from its context: the state it acts on. Everything here is read from text. */
export interface Observed {
  /** The main file's contents are in the context (not dropped by compaction, not an error). */
  readMain: boolean;
  /** Believed state of each known edit: applied and not reverted since. */
  applied: Record<string, boolean>;
  /** Edits reported "patch applied" since the last test run (or since the start). */
  editsSinceTest: number;
  /** Counts from the last test run, or null when there is none or its output is gone. */
  lastRun: { passed: number; failed: number; overBudget: number } | null;
  calls: number;
}

interface Exchange {
  name: string;
  args: Record<string, unknown>;
  response: string | null;
}

/** Tool calls and the responses that follow them, in order. */
function exchanges(text: string): Exchange[] {
  const out: Exchange[] = [];
  for (const turn of text.split('<|im_start|>')) {
    if (turn.startsWith('assistant\n')) {
      const m = /<tool_call>\n([\s\S]*?)\n<\/tool_call>/.exec(turn);
      const call = m ? parseCall(m[1] ?? '') : null;
      if (call) out.push({ ...call, response: null });
    } else if (turn.startsWith('user\n')) {
      const m = /<tool_response>\n([\s\S]*?)\n<\/tool_response>/.exec(turn);
      const last = out[out.length - 1];
      if (m && last && last.response === null) last.response = m[1] ?? '';
    }
  }
  return out;
}

function parseCall(json: string): { name: string; args: Record<string, unknown> } | null {
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v !== 'object' || v === null || !('name' in v) || typeof v.name !== 'string') return null;
    const args = 'arguments' in v && typeof v.arguments === 'object' && v.arguments !== null ? { ...v.arguments } : {};
    return { name: v.name, args };
  } catch {
    return null;
  }
}

const SUMMARY = /^(\d+) passed, (\d+) failed, (\d+) over budget$/m;

export function observe(text: string, rep: Repertoire): Observed {
  const o: Observed = { readMain: false, applied: {}, editsSinceTest: 0, lastRun: null, calls: 0 };
  for (const e of rep.edits) o.applied[e.key] = false;
  for (const x of exchanges(text)) {
    o.calls++;
    const ok = x.response !== null && !x.response.startsWith('error:') && x.response !== '[output omitted]';
    if (x.name === 'read_file' && x.args.path === rep.mainFile) o.readMain ||= ok;
    if (x.name === 'edit' && x.response === 'patch applied') {
      o.editsSinceTest++;
      for (const e of rep.edits) {
        if (x.args.old === e.old && x.args.new === e.new) o.applied[e.key] = true;
        if (x.args.old === e.new && x.args.new === e.old) o.applied[e.key] = false;
      }
    }
    if (x.name === 'run_tests') {
      o.editsSinceTest = 0;
      const m = x.response === null ? null : SUMMARY.exec(x.response);
      o.lastRun = m ? { passed: Number(m[1]), failed: Number(m[2]), overBudget: Number(m[3]) } : null;
    }
  }
  return o;
}
