import { z } from 'zod';

// No generated code: zod's JIT probes `new Function` when a schema is built, which the view server's CSP
// refuses (docs/adr/0010; a console violation per page and worker). Validation runs only for lines the
// fast check rejects, so the JIT buys little. Every schema imports z from here, so this runs first.
z.config({ jitless: true });

export { z };

/**
 * A value built on first call, then kept: for schemas, whose building is work a worker's script would
 * otherwise do when it loads, whether or not any line ever needs them.
 */
export function lazily<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
}
