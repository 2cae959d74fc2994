/// <reference lib="webworker" />
// Thin by design: wires each request to the highlighter's tokenize, which node tests drive directly.
import { loadHighlighter } from './highlighter';
import type { FromHighlightWorker, ToHighlightWorker } from './highlightQueue';

declare const self: DedicatedWorkerGlobalScope;
const highlighter = loadHighlighter();

self.onmessage = (event: MessageEvent<ToHighlightWorker>) => {
  const { id, code, lang } = event.data;
  highlighter
    .then((h) => h.tokenize(code, lang))
    .then(
      (lines) => self.postMessage({ id, lines } satisfies FromHighlightWorker),
      (e) => self.postMessage({ id, error: e instanceof Error ? e.message : String(e) } satisfies FromHighlightWorker),
    );
};
