import { sha256 } from '@noble/hashes/sha2.js';
import { useQuery } from '@tanstack/react-query';
import { toHex } from '../../analysis';

export interface ComputedDigest {
  hex: string;
  /** SubtleCrypto where the page has it; a plain-http page on another host does not (no secure context). */
  via: 'SubtleCrypto' | '@noble/hashes';
}

/** SHA-256 of the artifact's UTF-8 bytes, as `sha256sum` of the patch file would print it. */
async function sha256Hex(text: string): Promise<ComputedDigest> {
  const bytes = new TextEncoder().encode(text);
  if (globalThis.crypto?.subtle) return { hex: toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))), via: 'SubtleCrypto' };
  return { hex: toHex(sha256(bytes)), via: '@noble/hashes' };
}

/** The artifact's digest, recomputed in this browser; keyed by the text itself, so equal artifacts hash once. */
export function useArtifactDigest(artifact: string | undefined) {
  return useQuery({
    queryKey: ['artifact-sha256', artifact ?? null] as const,
    queryFn: () => sha256Hex(artifact ?? ''),
    enabled: artifact !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
