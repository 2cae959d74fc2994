import { toolCallText } from '../chat/chatml';
import type { Tokenizer } from '../chat/tokenizer';
import { pathGradients } from './gradient';
import { observe } from './observe';
import { logitOf, moveFeatures, PARAM_COUNT, type PolicyParams } from './params';
import { type Move, movesFor, type Repertoire, repertoireFor } from './repertoire';
import type { Rng } from './rng';
import { buildTrie, scorePath, type TrieNode, type Truncation, walk } from './trie';

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

/**
 * How an inference engine runs the policy, where engines differ from the trainer's reference computation.
 * `tokenization: 'per-field'`: a JSON-grammar-constrained decoder emits the call's punctuation and each
 * string separately, so BPE never merges across a quote (`": "` and `read` stay apart): the sampled ids
 * spell the same text as the canonical encoding, in other tokens. `weights: 'bfloat16'`: the engine holds
 * each move's weight exp(logit / T) in bfloat16 (8 significant bits), as a low-precision inference kernel
 * would; every branching token's probability then differs slightly from the float64 trainer's.
 */
export interface Engine {
  tokenization: 'whole' | 'per-field';
  weights: 'float64' | 'bfloat16';
}

const REFERENCE_ENGINE: Engine = { tokenization: 'whole', weights: 'float64' };

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** x rounded to the nearest bfloat16 (ties to even), the way a float32 -> bf16 conversion does it. */
export function toBfloat16(x: number): number {
  f32[0] = x;
  const bits = u32[0] as number;
  u32[0] = ((bits + 0x7fff + ((bits >>> 16) & 1)) & 0xffff0000) >>> 0;
  return f32[0] as number;
}

/** The call text cut where a JSON grammar switches between punctuation and a string's contents. */
function grammarPieces(text: string): string[] {
  return text.split(/(?=")|(?<=")/).filter((p) => p !== '');
}

/**
 * A move outside the trained parameter space: it has a fixed logit of its own and no feature, so training
 * never changes it (its gradient is 0) and the 19 parameters of params.ts stay as they are. Only the scanner
 * cases give the policy such moves (policy/hacks.ts); a policy without them is exactly the demo's policy.
 */
export interface FixedMove {
  /** The main file of the repertoire the move belongs to (the task's file the prompt names). */
  mainFile: string;
  move: Move;
  logit: number;
}

export interface Candidate {
  move: Move;
  text: string;
  ids: number[];
  /** The situations the move is in (indices into PARAM_NAMES). */
  features: number[];
  /** theta . features. */
  logit: number;
  /** exp(logit / T), 0 when the call does not fit in max_new_tokens. */
  mass: number;
}

export interface Action {
  ids: number[];
  logprobs: number[];
  /** The move the tokens spell out. */
  key: string;
}

/** Log-probabilities of a generation's tokens with their gradients in theta (one vector per token). */
export interface ScoredTokens {
  logprobs: number[];
  grads: number[][];
}

/**
 * The model role. It sees token ids only: it decodes its context, reads off what it has observed,
 * gives each move it knows a logit (params.ts), and generates one tool call token by token from the
 * distribution constrained to those moves (see trie.ts). `score` is the same computation run
 * backwards, which is what the trainer uses to recompute log-probabilities; `scoreWithGrad` adds
 * their exact gradients (gradient.ts).
 */
export class Policy {
  private readonly tokenCache = new Map<string, number[]>();

  constructor(
    readonly params: PolicyParams,
    readonly sampling: SamplingConfig,
    private readonly tok: Tokenizer,
    readonly engine: Engine = REFERENCE_ENGINE,
    readonly fixedMoves: readonly FixedMove[] = [],
  ) {}

  get version(): string {
    return this.params.version;
  }

  /** The same policy at other parameters (a trainer's update), sharing the token cache. */
  withParams(params: PolicyParams): Policy {
    const p = new Policy(params, this.sampling, this.tok, this.engine, this.fixedMoves);
    for (const [k, v] of this.tokenCache) p.tokenCache.set(k, v);
    return p;
  }

  /** The same weights run by another inference engine (a sampler that differs from the trainer). */
  onEngine(engine: Engine): Policy {
    const p = new Policy(this.params, this.sampling, this.tok, engine, this.fixedMoves);
    for (const [k, v] of this.tokenCache) p.tokenCache.set(k, v);
    return p;
  }

  /** The same policy knowing `moves` besides its own (the scanner cases' hacks). */
  withFixedMoves(moves: readonly FixedMove[]): Policy {
    const p = new Policy(this.params, this.sampling, this.tok, this.engine, [...this.fixedMoves, ...moves]);
    for (const [k, v] of this.tokenCache) p.tokenCache.set(k, v);
    return p;
  }

  /** The candidate calls and their masses in this context. */
  candidates(contextIds: readonly number[]): Candidate[] {
    const text = this.tok.decode(contextIds);
    const rep: Repertoire | null = repertoireFor(text);
    if (!rep) throw new Error('the context names no file this policy knows');
    const seen = observe(text, rep);
    const candidate = (move: Move, features: number[], logit: number): Candidate => {
      const callText = toolCallText(move.tool, move.args);
      const ids = this.encode(callText);
      const fits = ids.length <= this.sampling.max_new_tokens;
      const weight = Math.exp(logit / this.sampling.temperature);
      const mass = fits ? (this.engine.weights === 'bfloat16' ? toBfloat16(weight) : weight) : 0;
      return { move, text: callText, ids, features, logit, mass };
    };
    const own = movesFor(rep).map((move) => {
      const features = moveFeatures(move, seen);
      return candidate(move, features, logitOf(features, this.params.theta));
    });
    const fixed = this.fixedMoves.filter((f) => f.mainFile === rep.mainFile).map((f) => candidate(f.move, [], f.logit));
    return [...own, ...fixed];
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

  /** `score` plus d logprob / d theta for each token; null where `score` is. */
  scoreWithGrad(contextIds: readonly number[], generated: readonly number[]): ScoredTokens | null {
    const cands = this.candidates(contextIds);
    const trie = this.trie(cands);
    const logprobs = scorePath(trie, this.truncation(), generated);
    const grads = pathGradients(trie, this.truncation(), generated, cands, PARAM_COUNT, this.sampling.temperature);
    return logprobs && grads ? { logprobs, grads } : null;
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
    const key = `${this.engine.tokenization}\0${text}`;
    let ids = this.tokenCache.get(key);
    if (!ids) {
      ids = this.engine.tokenization === 'per-field' ? grammarPieces(text).flatMap((p) => this.tok.encode(p)) : this.tok.encode(text);
      this.tokenCache.set(key, ids);
    }
    return ids;
  }
}
