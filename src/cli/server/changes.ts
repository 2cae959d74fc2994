import { type FSWatcher, watch } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** After a change notification, wait this long for the burst to end before listing (a writer's writes come in bursts). */
const SETTLE_MS = 50;
/**
 * The fallback poll, for filesystems that do not notify (network mounts, some containers): never more
 * often than this, and never busier than 1/POLL_COST_RATIO of a core (the next poll waits that many times
 * the last listing's duration), so a directory of 20,000 files cannot eat a core (docs/adr/0010).
 */
export const POLL_MIN_MS = 1000;
const POLL_COST_RATIO = 40;

export interface ChangeFeedOptions {
  /** The current state to announce, serialized; announced when it differs from the last announcement. */
  snapshot: () => Promise<string>;
  /** The directories to watch and how deep below each (each named directory; each named file's folder). */
  roots: () => { path: string; depth: number }[];
  announce: (snapshot: string) => void;
}

/**
 * Tells listeners when the served files change. Change notifications (fs.watch on every watched
 * directory: inotify reports a child's writes, creations and renames) trigger a listing; a slow poll
 * catches what notifications miss. Listings never overlap (a change during one queues one more), and
 * everything stops when the last listener leaves.
 */
export class ChangeFeed {
  private listeners = 0;
  private watchers = new Map<string, FSWatcher>();
  private last = '';
  private running: Promise<void> | null = null;
  private again = false;
  private settle: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;

  constructor(private readonly options: ChangeFeedOptions) {}

  /** Counts a listener in; returns the function that counts it out. */
  listen(): () => void {
    this.listeners++;
    if (this.listeners === 1) {
      this.last = '';
      void this.refresh();
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.listeners--;
      if (this.listeners === 0) this.stop();
    };
  }

  get active(): boolean {
    return this.listeners > 0;
  }

  stop(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.settle) clearTimeout(this.settle);
    if (this.poll) clearTimeout(this.poll);
    this.settle = null;
    this.poll = null;
  }

  /** A listing now, or right after the running one ends (changes during a listing are not lost). */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run().finally(() => {
      this.running = null;
      if (this.again && this.active) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.running;
  }

  private async run(): Promise<void> {
    if (this.poll) clearTimeout(this.poll);
    this.poll = null;
    const started = performance.now();
    await this.watchDirectories();
    const snapshot = await this.options.snapshot().catch(() => this.last);
    const took = performance.now() - started;
    if (!this.active) return;
    if (snapshot !== this.last) {
      this.last = snapshot;
      this.options.announce(snapshot);
    }
    this.poll = setTimeout(() => void this.refresh(), Math.max(POLL_MIN_MS, POLL_COST_RATIO * took));
    this.poll.unref();
  }

  private onChange = () => {
    if (this.settle || !this.active) return;
    this.settle = setTimeout(() => {
      this.settle = null;
      void this.refresh();
    }, SETTLE_MS);
  };

  /** One watcher per real directory under each root (new ones picked up at each listing; gone ones dropped). */
  private async watchDirectories(): Promise<void> {
    const wanted = new Set<string>();
    for (const root of this.options.roots()) {
      const stack: { dir: string; depth: number }[] = [{ dir: root.path, depth: 0 }];
      while (stack.length > 0) {
        const { dir, depth } = stack.pop() ?? { dir: '', depth: 0 };
        wanted.add(dir);
        if (depth >= root.depth) continue;
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const e of entries) if (e.isDirectory() && !e.name.startsWith('.')) stack.push({ dir: join(dir, e.name), depth: depth + 1 });
      }
    }
    if (!this.active) return;
    for (const [dir, w] of this.watchers) {
      if (wanted.has(dir)) continue;
      w.close();
      this.watchers.delete(dir);
    }
    for (const dir of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        const w = watch(dir, { persistent: false }, this.onChange);
        // A watched directory that goes away (or a watch limit) leaves the poll to notice changes.
        w.on('error', () => {
          w.close();
          this.watchers.delete(dir);
          this.onChange();
        });
        this.watchers.set(dir, w);
      } catch {
        // Not watchable (watch limit, unsupported filesystem): the poll covers it.
      }
    }
  }
}
