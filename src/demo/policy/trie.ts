import type { Rng } from './rng';

/**
 * Constrained decoding over a fixed set of candidate token sequences. At a node, a child token's
 * probability is the (temperature-adjusted) weight mass of the candidates below that child divided
 * by the mass of all the node's children, then cut by top-k and top-p and renormalised. The product
 * of the probabilities along a path is therefore the probability of that whole candidate, and the
 * recorded token log-probabilities sum to its log-probability.
 */
export interface TrieNode {
  mass: number;
  children: Map<number, TrieNode>;
  /** Index of the candidate that ends here. */
  leaf: number | null;
  /** Indices of the candidates below this node (with mass > 0): what its mass is the sum of. */
  members: number[];
}

export interface Truncation {
  /** <= 0 means off. */
  topK: number;
  /** 1 means off. */
  topP: number;
}

export function buildTrie(sequences: readonly (readonly number[])[], masses: readonly number[]): TrieNode {
  const root: TrieNode = { mass: 0, children: new Map(), leaf: null, members: [] };
  sequences.forEach((seq, i) => {
    const m = masses[i] ?? 0;
    if (!(m > 0)) return;
    let node = root;
    node.mass += m;
    node.members.push(i);
    for (const id of seq) {
      let next = node.children.get(id);
      if (!next) {
        next = { mass: 0, children: new Map(), leaf: null, members: [] };
        node.children.set(id, next);
      }
      next.mass += m;
      next.members.push(i);
      node = next;
    }
    if (node.leaf !== null) throw new Error(`candidates ${node.leaf} and ${i} have the same tokens`);
    node.leaf = i;
  });
  return root;
}

/** The next-token distribution at a node, in ascending token-id order (a stable order for sampling). */
export function childDistribution(node: TrieNode, cut: Truncation): Array<{ id: number; p: number; child: TrieNode }> {
  const all = [...node.children].map(([id, child]) => ({ id, child, mass: child.mass }));
  let kept = [...all].sort((a, b) => b.mass - a.mass || a.id - b.id);
  if (cut.topK > 0) kept = kept.slice(0, cut.topK);
  if (cut.topP < 1) {
    const total = kept.reduce((s, c) => s + c.mass, 0);
    let acc = 0;
    const n = kept.findIndex((c) => {
      acc += c.mass;
      return acc / total >= cut.topP;
    });
    // Rounding can leave the running sum a hair under top_p: then every child stays.
    if (n >= 0) kept = kept.slice(0, n + 1);
  }
  const total = kept.reduce((s, c) => s + c.mass, 0);
  return kept.sort((a, b) => a.id - b.id).map((c) => ({ id: c.id, p: c.mass / total, child: c.child }));
}

export interface Walk {
  ids: number[];
  logprobs: number[];
  leaf: number;
}

/**
 * Samples a path token by token. With `forced` (a candidate's tokens) the path is given, but each
 * token still gets its log-probability under the same distribution, so steering never fakes a number.
 */
export function walk(root: TrieNode, cut: Truncation, rng: Rng, forced?: readonly number[]): Walk {
  const ids: number[] = [];
  const logprobs: number[] = [];
  let node = root;
  while (node.leaf === null) {
    const dist = childDistribution(node, cut);
    const want = forced?.[ids.length];
    const pick = want === undefined ? sampleFrom(dist, rng()) : dist.find((d) => d.id === want);
    if (!pick) throw new Error(`token ${want} is outside the constrained distribution at position ${ids.length}`);
    ids.push(pick.id);
    logprobs.push(Math.log(pick.p));
    node = pick.child;
  }
  return { ids, logprobs, leaf: node.leaf };
}

function sampleFrom<T extends { p: number }>(dist: readonly T[], u: number): T | undefined {
  let acc = 0;
  for (const d of dist) {
    acc += d.p;
    if (u < acc) return d;
  }
  return dist[dist.length - 1];
}

/** Log-probabilities of a given path, or null where the path leaves the trie (probability 0). */
export function scorePath(root: TrieNode, cut: Truncation, path: readonly number[]): number[] | null {
  const out: number[] = [];
  let node = root;
  for (const id of path) {
    const pick = childDistribution(node, cut).find((d) => d.id === id);
    if (!pick) return null;
    out.push(Math.log(pick.p));
    node = pick.child;
  }
  return node.leaf === null ? null : out;
}
