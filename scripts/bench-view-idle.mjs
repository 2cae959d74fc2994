// Idle cost of `trajscope view` following a large run directory (issue 18): 20,000 files, one page
// listening to the change feed, nothing changing. Measures the server's CPU (utime+stime from /proc)
// and RSS over a window; target below 0.05 core. Linux only (reads /proc). Run: npm run bench:view-idle
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startView } from './view-server.mjs';

const FILES = Number(process.env.BENCH_FILES ?? 20_000);
const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 20_000);
const TARGET_CORES = 0.05;
const TICKS = 100; // USER_HZ on Linux

const dir = mkdtempSync(join(tmpdir(), 'trajscope-idle-'));
const line = `${JSON.stringify({ task_id: 't', rollout_id: 'r', attempt_id: 'a', policy_version: 'p', environment_version: 'e', segments: [], termination: 'finished', reward: 1 })}\n`;
for (let d = 0; d < 20; d++) {
  mkdirSync(join(dir, `shard-${d}`));
  for (let f = 0; f < FILES / 20; f++) writeFileSync(join(dir, `shard-${d}`, `rollouts-${f}.jsonl`), line);
}

const { base, server } = await startView([dir]);

/** CPU seconds and RSS of the server process, from /proc. */
function sample() {
  const stat = readFileSync(`/proc/${server.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpu = (Number(fields[11]) + Number(fields[12])) / TICKS;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  return { cpu, rss, at: performance.now() };
}

async function measure(label) {
  const a = sample();
  await new Promise((r) => setTimeout(r, WINDOW_MS));
  const b = sample();
  const cores = (b.cpu - a.cpu) / ((b.at - a.at) / 1000);
  return { label, cores, rssMb: b.rss / 2 ** 20, rssGrowthMb: (b.rss - a.rss) / 2 ** 20 };
}

// One page listening (the feed is active); let the first listing and the watchers settle.
const events = request(`${base}api/events`);
events.on('error', () => {});
events.on('response', (res) => res.resume());
events.end();
await new Promise((r) => setTimeout(r, 5000));
const listening = await measure(`${FILES.toLocaleString('en-US')} files, one page listening, idle`);
events.destroy();
await new Promise((r) => setTimeout(r, 2000));
const closed = await measure(`${FILES.toLocaleString('en-US')} files, page closed`);
server.kill('SIGTERM');

for (const r of [listening, closed]) {
  console.log(
    `${r.label.padEnd(44)} ${r.cores.toFixed(3)} cores  RSS ${r.rssMb.toFixed(0)} MB (${r.rssGrowthMb >= 0 ? '+' : ''}${r.rssGrowthMb.toFixed(1)} MB over ${WINDOW_MS / 1000} s)`,
  );
}
const ok = listening.cores < TARGET_CORES && closed.cores < TARGET_CORES;
console.log(`target: below ${TARGET_CORES} core idle — ${ok ? 'met' : 'NOT met'}`);
process.exitCode = ok ? 0 : 1;
