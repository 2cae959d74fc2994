import { toolCallText } from '../chat/chatml';
import type { Tokenizer } from '../chat/tokenizer';
import { observe } from './observe';
import { type Move, movesFor, type Repertoire, repertoireFor } from './repertoire';
import type { Rng } from './rng';
import { buildTrie, scorePath, type TrieNode, type Truncation, walk } from './trie';
import { moveWeight, type PolicyWeights } from './weights';

/** Recorded as the rollout's `sampling` (plus the rollout's own seed). */
export interface SamplingConfig {
  temperature: number;
  top_p: number;
  /** -1: off. */
  top_k: number;
  max_new_tokens: number;
  constrained: string;
}

export const DEMO_SAMPLING: SamplingConfig = {
  temperature: 1,
  top_p: 1,
  top_k: -1,
  max_new_tokens: 256,
  constrained: 'trie over candidate tool calls',
};

export interface Candidate {
  move: Move;
  text: string;
  ids: number[];
  /** Temperature-adjusted weight: weight^(1/T), 0 when the call does not fit in max_new_tokens. */
  mass: number;
}

export interface Action {
  ids: number[];
  logprobs: number[];
  /** The move the tokens spell out. */
  key: string;
}

/**
 * The model role. It sees token ids only: it decodes its context, reads off what it has observed,
 * weighs the moves it knows, and generates one tool call token by token from the distribution
 * constrained to those moves (see trie.ts). `score` is the same computation run backwards, which is
 * what the trainer uses to recompute log-probabilities.
 */
export class Policy {
  private readonly tokenCache = new Map<string, number[]>();

  constructor(
    readonly weights: PolicyWeights,
    readonly sampling: SamplingConfig,
    private readonly tok: Tokenizer,
  ) {}

  get version(): string {
    return this.weights.version;
  }

  /** The candidate calls and their masses in this context. */
  candidates(contextIds: readonly number[]): Candidate[] {
    const text = this.tok.decode(contextIds);
    const rep: Repertoire | null = repertoireFor(text);
    if (!rep) throw new Error('the context names no file this policy knows');
    const seen = observe(text, rep);
    return movesFor(rep).map((move) => {
      const callText = toolCallText(move.tool, move.args);
      const ids = this.encode(callText);
      const fits = ids.length <= this.sampling.max_new_tokens;
      const mass = fits ? moveWeight(move, seen, this.weights) ** (1 / this.sampling.temperature) : 0;
      return { move, text: callText, ids, mass };
    });
  }

  /** Generates one call. `steer` names the move to take (scripted scenarios); its tokens are still scored honestly. */
  act(contextIds: readonly number[], rng: Rng, steer?: string): Action {
    const cands = this.candidates(contextIds);
    const forced = steer === undefined ? undefined : cands.find((c) => c.move.key === steer);
    if (steer !== undefined && !forced) throw new Error(`no move "${steer}"`);
    const trie = this.trie(cands);
    const w = walk(trie, this.truncation(), rng, forced?.ids);
    const key = cands[w.leaf]?.move.key ?? '';
    return { ids: w.ids, logprobs: w.logprobs, key };
  }

  /** Log-probability of each token of `generated` after `contextIds`, or null if the policy cannot produce it. */
  score(contextIds: readonly number[], generated: readonly number[]): number[] | null {
    return scorePath(this.trie(this.candidates(contextIds)), this.truncation(), generated);
  }

  private trie(cands: Candidate[]): TrieNode {
    return buildTrie(
      cands.map((c) => c.ids),
      cands.map((c) => c.mass),
    );
  }

  private truncation(): Truncation {
    return { topK: this.sampling.top_k, topP: this.sampling.top_p };
  }

  private encode(text: string): number[] {
    let ids = this.tokenCache.get(text);
    if (!ids) {
      ids = this.tok.encode(text);
      this.tokenCache.set(text, ids);
    }
    return ids;
  }
}
