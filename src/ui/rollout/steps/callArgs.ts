/** One argument of a tool call, as text to show. */
export interface ArgEntry {
  key: string;
  /** Strings as they are; anything else as indented JSON. */
  text: string;
  /** Shown on lines of its own: it spans lines or is long. */
  block: boolean;
  /** The value was not a string (shown as JSON). */
  json: boolean;
}

/** Long single-line values wrap better below their key than beside it. */
const INLINE_LIMIT = 60;

export function argEntries(args: Record<string, unknown>, omit: readonly string[] = []): ArgEntry[] {
  return Object.entries(args)
    .filter(([k]) => !omit.includes(k))
    .map(([key, v]) => {
      const json = typeof v !== 'string';
      const text = json ? (JSON.stringify(v, null, 2) ?? String(v)) : v;
      return { key, text, json, block: text.includes('\n') || text.length > INLINE_LIMIT };
    });
}

/** The (old, new) key pairs of replace-style edit tools. */
const EDIT_KEYS = [
  ['old', 'new'],
  ['old_str', 'new_str'],
  ['old_string', 'new_string'],
] as const;

export interface EditArgs {
  oldKey: string;
  newKey: string;
  old: string;
  new: string;
}

/** The replaced and replacing text of an edit call, when the arguments have a string pair for them. */
export function editArgs(args: Record<string, unknown>): EditArgs | null {
  for (const [oldKey, newKey] of EDIT_KEYS) {
    const o = args[oldKey];
    const n = args[newKey];
    if (typeof o === 'string' && typeof n === 'string') return { oldKey, newKey, old: o, new: n };
  }
  return null;
}
