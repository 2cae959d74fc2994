/*
 * Python literals as `str()` / `repr()` print them (`[{'id': 'call_1', 'ok': True}]`): SWE-agent saves a
 * function-calling history's `tool_calls` and `tool_call_ids` that way. Only literals: dicts, lists,
 * tuples, strings (single or double quotes, with escapes), numbers, True, False, None. Iterative, so a
 * deeply nested value cannot overflow the stack. Returns undefined for anything else.
 */

type Frame = { kind: 'list'; items: unknown[]; close: string } | { kind: 'dict'; obj: Record<string, unknown>; key: string | null };

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};

export function parsePythonLiteral(text: string): unknown {
  let i = 0;
  const stack: Frame[] = [];
  let result: unknown;
  let done = false;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  };
  const str = (): string | undefined => {
    const quote = text[i];
    i++;
    let out = '';
    while (i < text.length) {
      const c = text[i] ?? '';
      if (c === quote) {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = text[i + 1] ?? '';
        if (e === 'x' || e === 'u') {
          const n = e === 'x' ? 2 : 4;
          const hex = text.slice(i + 2, i + 2 + n);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) return undefined;
          out += String.fromCharCode(Number.parseInt(hex, 16));
          i += 2 + n;
          continue;
        }
        out += ESCAPES[e] ?? `\\${e}`;
        i += 2;
        continue;
      }
      out += c;
      i++;
    }
    return undefined;
  };
  /** A scalar at i, or undefined (then the caller fails). */
  const scalar = (): { v: unknown } | undefined => {
    const c = text[i];
    if (c === "'" || c === '"') {
      const s = str();
      return s === undefined ? undefined : { v: s };
    }
    const m = /^(True|False|None|-?\d+(\.\d+)?([eE][-+]?\d+)?)/.exec(text.slice(i, i + 40));
    if (!m) return undefined;
    i += m[0].length;
    const w = m[0];
    return { v: w === 'True' ? true : w === 'False' ? false : w === 'None' ? null : Number(w) };
  };
  const put = (v: unknown): boolean => {
    const top = stack.at(-1);
    if (!top) {
      result = v;
      done = true;
      return true;
    }
    if (top.kind === 'list') top.items.push(v);
    else if (top.key === null) {
      if (typeof v !== 'string' && typeof v !== 'number') return false;
      top.key = String(v);
      ws();
      if (text[i] !== ':') return false;
      i++;
    } else {
      if (top.key !== '__proto__') top.obj[top.key] = v;
      top.key = null;
    }
    return true;
  };
  while (!done) {
    ws();
    const c = text[i];
    if (c === undefined) return undefined;
    if (c === '[' || c === '(') {
      i++;
      stack.push({ kind: 'list', items: [], close: c === '[' ? ']' : ')' });
    } else if (c === '{') {
      i++;
      stack.push({ kind: 'dict', obj: {}, key: null });
    } else {
      const top = stack.at(-1);
      const closes = top && ((top.kind === 'list' && c === top.close) || (top.kind === 'dict' && c === '}' && top.key === null));
      if (closes && top) {
        i++;
        stack.pop();
        if (!put(top.kind === 'list' ? top.items : top.obj)) return undefined;
      } else {
        const s = scalar();
        if (!s || !put(s.v)) return undefined;
      }
    }
    if (done) break;
    ws();
    if (text[i] === ',') i++;
  }
  ws();
  return i === text.length ? result : undefined;
}
