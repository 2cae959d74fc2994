import { type ChildProcess, fork } from 'node:child_process';

/*
 * Index child processes kept between the index runs of one process. A child costs 0.2-0.3 s to start and
 * runs its first file with cold code, and `trajscope view RUN_DIR` indexes a growing run again every time
 * it changes; so a run that ends well hands its children back here and the next run takes them. A kept
 * child does not keep this process alive (a CLI run exits as before, and its children with it: they leave
 * when their channel closes), and leaves on its own after IDLE_MS without work.
 */

const IDLE_MS = 60_000;

interface Kept {
  child: ChildProcess;
  script: string;
  ready: Promise<void>;
  timer: NodeJS.Timeout;
  drop: () => void;
}

const kept: Kept[] = [];

/** A child running `script`, kept or new, and when it has loaded (it says so once). */
export function lendChild(script: string, args: readonly string[]): { child: ChildProcess; ready: Promise<void> } {
  const i = kept.findIndex((k) => k.script === script && k.child.connected);
  const k = i === -1 ? undefined : kept.splice(i, 1)[0];
  if (k) {
    clearTimeout(k.timer);
    k.child.off('exit', k.drop);
    hold(k.child, true);
    return { child: k.child, ready: k.ready };
  }
  const child = fork(script, [...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  const ready = new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`an index process did not start (exit ${code})`));
    child.once('exit', onExit);
    child.once('message', () => {
      child.off('exit', onExit);
      resolve();
    });
  });
  // A run may end before its child has loaded; then nobody awaits this, and a failed start is no error.
  ready.catch(() => {});
  return { child, ready };
}

/** Takes back a child a run is done with (its requests all answered), for the next run. */
export function keepChild(child: ChildProcess, script: string, ready: Promise<void>): void {
  if (!child.connected || child.exitCode !== null) return;
  hold(child, false);
  const drop = () => {
    const at = kept.indexOf(entry);
    if (at !== -1) kept.splice(at, 1);
  };
  const timer = setTimeout(() => {
    drop();
    if (child.connected) child.disconnect();
  }, IDLE_MS);
  timer.unref();
  const entry: Kept = { child, script, ready, timer, drop };
  child.once('exit', drop);
  kept.push(entry);
}

/** Whether this process waits for the child (and its channel) before it may exit. */
function hold(child: ChildProcess, yes: boolean): void {
  const channel = child.channel as { ref?: () => void; unref?: () => void } | null | undefined;
  if (yes) {
    child.ref();
    channel?.ref?.();
  } else {
    child.unref();
    channel?.unref?.();
  }
}

/** How many children wait for the next run (for tests). */
export function keptChildren(): number {
  return kept.filter((k) => k.child.connected).length;
}
