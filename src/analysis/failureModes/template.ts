/*
 * Log lines to templates, in the manner of Drain (He et al., "Drain: An Online Log Parsing Approach with
 * Fixed Depth Tree", ICWS 2017; Drain3 is its maintained form). Drain was chosen over offline clusterers
 * (LogCluster, Spell's LCS, IPLoM) because it is online, one pass, deterministic for a given input order,
 * and its memory is the number of templates, not of lines: what a streaming reader of a run needs.
 *
 * A line is first masked (values that vary between occurrences of one message become placeholders), then
 * split on whitespace, then routed down a tree of fixed depth: by its token count, then by its first
 * `PREFIX_TOKENS` tokens (a token holding a placeholder routes as `<*>`, so a leading value cannot split
 * messages). At the leaf it joins the template most similar to it, if that similarity reaches
 * `SIMILARITY`; each position where the two differ then becomes `<*>`. Otherwise it starts a template.
 */

/** Drain's st: the share of token positions that must be equal for a line to join a template. */
const SIMILARITY = 0.5;
/** Tree depth minus the length layer and the leaf: how many leading tokens route a line. */
const PREFIX_TOKENS = 2;
/** Children per inner node before further first tokens share the `<*>` child (Drain's maxChild). */
const MAX_CHILDREN = 100;
/**
 * At most this many templates; past it, a line that joins none takes its leaf's most similar one, or the
 * one overflow template `<*>` when its leaf is empty: a guard against pathological input, never reached by
 * masked messages in practice.
 */
export const MAX_TEMPLATES = 2000;
/** A longer line is cut: a template is a message, not a dump. */
const MAX_CHARS = 240;
const MAX_TOKENS = 40;

const WILDCARD = '<*>';

/*
 * Order matters: quoted values and paths go before numbers, so a path with digits in it is one
 * placeholder, and hex before numbers, so `0x1f` is not `<n>x1f`.
 */
const MASKS: readonly [RegExp, string][] = [
  [/(?<!\w)(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`)/g, '<str>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/gi, '<hex>'],
  [
    /(?:[A-Za-z]:)?(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]*|\b[\w-]+\.(?:py|js|ts|tsx|json|jsonl|txt|md|rs|go|c|h|cpp|java|sh|yaml|yml|toml|log)\b/g,
    '<path>',
  ],
  [/\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z][\w]*[-_][\w-]+\b/g, '<id>'],
  [/[-+]?\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\b/gi, '<n>'],
];

/** Masks the values in one line: quoted strings, uuids, hex, paths, ids with digits, numbers. */
export function maskLine(line: string): string {
  let out = line.length > MAX_CHARS ? line.slice(0, MAX_CHARS) : line;
  for (const [re, placeholder] of MASKS) out = out.replace(re, placeholder);
  return out;
}

/** A line's masked tokens, as the miner reads them. */
function tokensOf(line: string): string[] {
  return maskLine(line).trim().split(/\s+/).filter(Boolean).slice(0, MAX_TOKENS);
}

const isVariable = (token: string) => token.includes('<');

export interface Template {
  id: number;
  tokens: string[];
  /** Lines that joined it. */
  size: number;
}

/** Equal tokens over positions; a `<*>` in the template matches anything but counts for less (Drain's tiebreak). */
function similarity(template: readonly string[], tokens: readonly string[]): { sim: number; wild: number } {
  let equal = 0;
  let wild = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (template[i] === WILDCARD) wild++;
    else if (template[i] === tokens[i]) equal++;
  }
  return { sim: tokens.length === 0 ? 1 : equal / tokens.length, wild };
}

interface Node {
  children: Map<string, Node>;
  templates: Template[];
}

const node = (): Node => ({ children: new Map(), templates: [] });

/**
 * The online template miner: `add(line)` gives the line's template (which may generalise as lines
 * join it, so read `text(id)` when printing). Deterministic for a given order of lines.
 */
export class TemplateMiner {
  private readonly root = node();
  private readonly byId: Template[] = [];
  private readonly overflow: Template = { id: -1, tokens: [WILDCARD], size: 0 };

  add(line: string): Template {
    const tokens = tokensOf(line);
    const leaf = this.leafOf(tokens);
    let best: Template | undefined;
    let bestSim = -1;
    let bestWild = -1;
    for (const t of leaf.templates) {
      const { sim, wild } = similarity(t.tokens, tokens);
      if (sim > bestSim || (sim === bestSim && wild > bestWild)) [best, bestSim, bestWild] = [t, sim, wild];
    }
    const full = this.byId.length >= MAX_TEMPLATES;
    if (best && (bestSim >= SIMILARITY || full)) {
      best.tokens = best.tokens.map((t, i) => (t === tokens[i] ? t : WILDCARD));
      best.size++;
      return best;
    }
    if (full) {
      this.overflow.size++;
      return this.overflow;
    }
    const created: Template = { id: this.byId.length, tokens, size: 1 };
    this.byId.push(created);
    leaf.templates.push(created);
    return created;
  }

  /** A template's current text. */
  text(id: number): string {
    return (id === this.overflow.id ? this.overflow : this.byId[id])?.tokens.join(' ') ?? '';
  }

  get size(): number {
    return this.byId.length;
  }

  private leafOf(tokens: readonly string[]): Node {
    let at = this.child(this.root, String(tokens.length));
    for (let i = 0; i < Math.min(PREFIX_TOKENS, tokens.length); i++) {
      const token = tokens[i] ?? '';
      at = this.child(at, isVariable(token) ? WILDCARD : token);
    }
    return at;
  }

  private child(parent: Node, key: string): Node {
    const existing = parent.children.get(key);
    if (existing) return existing;
    const slot = parent.children.size >= MAX_CHILDREN - 1 ? WILDCARD : key;
    const kept = parent.children.get(slot);
    if (kept) return kept;
    const made = node();
    parent.children.set(slot, made);
    return made;
  }
}
