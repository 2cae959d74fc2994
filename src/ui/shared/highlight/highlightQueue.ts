import { lazily } from '../../../format';
import { type CodeLines, loadHighlighter } from './highlighter';
import type { HighlightLang } from './languages';

/*
 * Code blocks waiting for their colours. Tokenizing runs in a worker, one block at a time, oldest first:
 * on the page's thread, the highlighter's arrival tokenized every code block of a rollout's steps in one
 * render, and a grammar's first use alone (compiling its patterns) was 58 ms of one task (issue 25). A
 * block unmounted before its turn is dropped; what was tokenized is kept (the most recent CACHED), so a
 * block scrolled back into view is coloured in its first render.
 */

export type ToHighlightWorker = { id: number; code: string; lang: HighlightLang };
export type FromHighlightWorker = { id: number; lines: CodeLines } | { id: number; error: string };

/** Tokenizes one block somewhere other than in the caller's task. */
export type Tokenize = (code: string, lang: HighlightLang) => Promise<CodeLines>;

const CACHED = 400;

interface Job {
  key: string;
  code: string;
  lang: HighlightLang;
  waiting: Set<(lines: CodeLines) => void>;
}

export interface HighlightQueue {
  /** The lines already tokenized for this code, if any (a hit counts as recent). */
  now(code: string, lang: HighlightLang): CodeLines | undefined;
  /** Tokenizes the code in its turn and calls `ready` with its lines; returns what stops the call. */
  later(code: string, lang: HighlightLang, ready: (lines: CodeLines) => void): () => void;
}

export function highlightQueue(tokenize: Tokenize): HighlightQueue {
  const done = new Map<string, CodeLines>();
  const jobs = new Map<string, Job>();
  let busy = false;
  const keyOf = (code: string, lang: HighlightLang) => `${lang}\n${code}`;

  const next = (): void => {
    if (busy) return;
    for (const job of jobs.values()) {
      if (job.waiting.size === 0) {
        jobs.delete(job.key);
        continue;
      }
      // Stays in `jobs` while the worker has it: a block asking for the same code meanwhile waits on it.
      busy = true;
      tokenize(job.code, job.lang)
        .then(
          (lines) => {
            done.set(job.key, lines);
            if (done.size > CACHED) done.delete(done.keys().next().value as string);
            for (const ready of job.waiting) ready(lines);
          },
          // Left plain: a block that cannot be coloured still shows its text.
          () => undefined,
        )
        .finally(() => {
          jobs.delete(job.key);
          busy = false;
          next();
        });
      return;
    }
  };

  return {
    now(code, lang) {
      const key = keyOf(code, lang);
      const lines = done.get(key);
      if (lines) {
        done.delete(key);
        done.set(key, lines);
      }
      return lines;
    },
    later(code, lang, ready) {
      const key = keyOf(code, lang);
      const have = done.get(key);
      if (have) {
        // Done between the block's render and its effect: answered all the same, not in the caller's task.
        let stopped = false;
        void Promise.resolve().then(() => stopped || ready(have));
        return () => {
          stopped = true;
        };
      }
      let job = jobs.get(key);
      if (!job) {
        job = { key, code, lang, waiting: new Set() };
        jobs.set(key, job);
      }
      const waiting = job.waiting;
      waiting.add(ready);
      next();
      return () => {
        waiting.delete(ready);
      };
    },
  };
}

/** In a browser, the highlight worker (started on first use); elsewhere (node tests), this thread later. */
function tokenizer(): Tokenize {
  if (typeof Worker === 'undefined') {
    const highlighter = lazily(loadHighlighter);
    return (code, lang) => highlighter().then((h) => h.tokenize(code, lang));
  }
  let worker: Worker | null = null;
  let ids = 0;
  const pending = new Map<number, { resolve: (lines: CodeLines) => void; reject: (e: Error) => void }>();
  return (code, lang) => {
    if (!worker) {
      worker = new Worker(new URL('./highlight.worker.ts', import.meta.url), { type: 'module' });
      worker.onmessage = (event: MessageEvent<FromHighlightWorker>) => {
        const m = event.data;
        const p = pending.get(m.id);
        pending.delete(m.id);
        if ('lines' in m) p?.resolve(m.lines);
        else p?.reject(new Error(m.error));
      };
    }
    const id = ++ids;
    const w = worker;
    return new Promise<CodeLines>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      w.postMessage({ id, code, lang } satisfies ToHighlightWorker);
    });
  };
}

/** The page's one queue. */
export const HIGHLIGHT = highlightQueue(tokenizer());
