import { ASSISTANT_OPEN, toolResponseTurn } from '../chat/chatml';
import type { Tokenizer } from '../chat/tokenizer';

/** What replaces a dropped tool output when the context is compacted. */
const OMITTED = '[output omitted]';

/**
 * The compaction rule: once the visible context is longer than `maxContextTokens`, every stale file
 * view (a read_file output of a file edited since) is replaced by OMITTED. Stale views are the bulk
 * of a coding context and the model can read the file again; test output and edit results stay.
 */
export interface Compaction {
  maxContextTokens: number;
}

interface Piece {
  kind: 'prompt' | 'generation' | 'observation';
  ids: number[];
  /** For a read_file output: the file it shows. */
  fileView?: string;
  stale?: boolean;
  /** For an observation dropped by compaction: the ids the model sees instead. */
  shown?: number[];
}

/** The full transcript of a rollout: every turn, nothing dropped, ending with the last generation. */
export interface Transcript {
  ids: number[];
  generations: Array<{ start: number; length: number }>;
}

/**
 * The model-visible context, built turn by turn. Ids are appended, never re-derived: a generation
 * goes in exactly as sampled, an observation as the tokens of its turn. Compaction changes what the
 * model sees from then on; the full transcript is kept beside it.
 */
export class ContextWindow {
  private readonly pieces: Piece[] = [];

  constructor(
    private readonly tok: Tokenizer,
    promptText: string,
    private readonly compaction?: Compaction,
  ) {
    this.pieces.push({ kind: 'prompt', ids: tok.encode(promptText + ASSISTANT_OPEN) });
  }

  /** The ids the model is conditioned on for its next generation. */
  visible(): number[] {
    return this.pieces.flatMap((p) => p.shown ?? p.ids);
  }

  appendGeneration(ids: readonly number[]): void {
    this.pieces.push({ kind: 'generation', ids: [...ids] });
  }

  /** The tool result as the next user turn, then the opening of the next assistant turn. */
  appendObservation(text: string, fileView?: string): void {
    this.pieces.push({ kind: 'observation', ids: this.observationIds(text), ...(fileView ? { fileView } : {}) });
  }

  /** A file changed: earlier views of it no longer show what is there. */
  noteEdit(path: string): void {
    for (const p of this.pieces) if (p.fileView === path) p.stale = true;
  }

  /** Applies the compaction rule; returns whether anything was dropped. */
  compact(): boolean {
    if (!this.compaction || this.visible().length <= this.compaction.maxContextTokens) return false;
    let dropped = false;
    for (const p of this.pieces) {
      if (!p.stale || p.shown) continue;
      p.shown = this.observationIds(OMITTED);
      dropped = true;
    }
    return dropped;
  }

  transcript(): Transcript {
    const lastGen = this.pieces.map((p) => p.kind).lastIndexOf('generation');
    const ids: number[] = [];
    const generations: Transcript['generations'] = [];
    this.pieces.slice(0, lastGen + 1).forEach((p) => {
      if (p.kind === 'generation') generations.push({ start: ids.length, length: p.ids.length });
      ids.push(...p.ids);
    });
    return { ids, generations };
  }

  private observationIds(text: string): number[] {
    return this.tok.encode(`\n${toolResponseTurn(text)}${ASSISTANT_OPEN}`);
  }
}
