import { z } from 'zod';

// No generated code: zod's JIT probes `new Function` when a schema is built, which the view server's CSP
// refuses (docs/adr/0010; a console violation per page and worker). Validation runs only for lines the
// fast check rejects, so the JIT buys little. Every schema imports z from here, so this runs first.
z.config({ jitless: true });

// Built on first use, as every schema is (docs/adr/0031).
export { lazily } from './lazily';
export { z };
