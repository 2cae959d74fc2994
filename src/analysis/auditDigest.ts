/* The submitted artifact against the digest the record names (shared/trajectory-format.md §3). */

export type RecordedDigest =
  | { kind: 'absent' }
  | { kind: 'sha256'; hex: string; prefixed: boolean }
  | { kind: 'unrecognised'; text: string };

/**
 * Reads a recorded `artifact_digest`: `sha256:<64 hex>` or bare 64 hex, any case. Anything else (another
 * algorithm, a truncated digest) is unrecognised: shown as it is, never compared.
 */
export function normalizeDigest(recorded: string | null | undefined): RecordedDigest {
  if (recorded === undefined || recorded === null || recorded.trim() === '') return { kind: 'absent' };
  const text = recorded.trim();
  const m = /^(sha-?256:)?([0-9a-f]{64})$/i.exec(text);
  if (!m?.[2]) return { kind: 'unrecognised', text };
  return { kind: 'sha256', hex: m[2].toLowerCase(), prefixed: m[1] !== undefined };
}

export type DigestComparison =
  | { status: 'match'; hex: string }
  | { status: 'mismatch'; recorded: string; computed: string }
  | { status: 'absent'; computed: string }
  | { status: 'unrecognised'; recorded: string; computed: string };

/** Compares the recorded digest with the one computed from the artifact (lower-case hex). */
export function compareDigest(recorded: string | null | undefined, computedHex: string): DigestComparison {
  const computed = computedHex.toLowerCase();
  const r = normalizeDigest(recorded);
  if (r.kind === 'absent') return { status: 'absent', computed };
  if (r.kind === 'unrecognised') return { status: 'unrecognised', recorded: r.text, computed };
  return r.hex === computed ? { status: 'match', hex: computed } : { status: 'mismatch', recorded: r.hex, computed };
}

/** Lower-case hex of bytes, as `sha256sum` prints. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}
