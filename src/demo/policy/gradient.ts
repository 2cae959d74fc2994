import { childDistribution, type TrieNode, type Truncation } from './trie';

/** What the gradient needs of each candidate: its mass exp(logit / T) and its active features. */
export interface GradCandidate {
  mass: number;
  features: readonly number[];
}

/** Mass-weighted mean of the feature vectors of `members`, as a dense vector of length `dim`. */
function meanFeatures(members: readonly number[], cands: readonly GradCandidate[], dim: number): { mean: number[]; mass: number } {
  const mean = new Array<number>(dim).fill(0);
  let mass = 0;
  for (const i of members) {
    const c = cands[i];
    if (!c) continue;
    mass += c.mass;
    for (const f of c.features) mean[f] = (mean[f] ?? 0) + c.mass;
  }
  for (let f = 0; f < dim; f++) mean[f] = (mean[f] ?? 0) / mass;
  return { mean, mass };
}

/**
 * Exact d log p(token) / d theta for each token of `path`. At a node, p(child) = M(child) / M(kept),
 * where M(S) sums exp(logit_c / T) over the candidates c below S and `kept` is what top-k / top-p leave
 * (constant under a small change of theta, so it is not differentiated). With logit_c = theta . phi_c,
 * d log M(S) / d theta = E_S[phi] / T, the mass-weighted mean of phi over S, so the gradient is
 * (E_child[phi] - E_kept[phi]) / T. Null where the path leaves the trie, as scorePath.
 */
export function pathGradients(
  root: TrieNode,
  cut: Truncation,
  path: readonly number[],
  cands: readonly GradCandidate[],
  dim: number,
  temperature: number,
): number[][] | null {
  const out: number[][] = [];
  let node = root;
  for (const id of path) {
    const dist = childDistribution(node, cut);
    const pick = dist.find((d) => d.id === id);
    if (!pick) return null;
    const kept = meanFeatures(
      dist.flatMap((d) => d.child.members),
      cands,
      dim,
    );
    const child = meanFeatures(pick.child.members, cands, dim);
    out.push(child.mean.map((m, f) => (m - (kept.mean[f] ?? 0)) / temperature));
    node = pick.child;
  }
  return node.leaf === null ? null : out;
}
