import { describe, expect, it } from 'vitest';
import { intents, readSelection } from './url';

// A rule file with what a query string must escape: & = + # % spaces, quotes, a newline, non-ASCII.
const TEXT = JSON.stringify(
  {
    rules: [{ id: 'a-b', title: 'Saw "50% & more" + #tags', severity: 'warning', step: { observation: 'a=b&c \\d+\n' } }],
    description: 'naïve ✓',
  },
  null,
  2,
);

describe('a scanner rule file in the URL', () => {
  it('comes back from the query string as the same name and the same text', () => {
    const { search } = intents.readWith('?src=local:a.jsonl&rollout=r-1', { rules: { name: 'my rules.json', text: TEXT } });
    expect(readSelection(search)).toMatchObject({
      sources: ['local:a.jsonl'],
      rollout: 'r-1',
      rules: { name: 'my rules.json', text: TEXT },
    });
  });

  it('is one rule set at a time with the default scanners, and turns off', () => {
    const withDefault = intents.readWith('?src=x', { scanners: true }).search;
    const withFile = intents.readWith(withDefault, { rules: { name: 'r.json', text: TEXT } }).search;
    expect(readSelection(withFile)).toMatchObject({ scanners: false, rules: { name: 'r.json' } });
    expect(readSelection(intents.readWith(withFile, { scanners: true }).search)).toMatchObject({ scanners: true, rules: null });
    expect(readSelection(intents.readWith(withFile, { rules: null }).search)).toMatchObject({ scanners: false, rules: null });
    expect(intents.readWith(withFile, { rules: null }).search).toBe('?src=x');
  });

  it('is dropped when other sources are opened, as a mapping is', () => {
    const withFile = intents.readWith('?src=x', { rules: { name: 'r.json', text: TEXT } }).search;
    expect(readSelection(intents.openSources(['y'], withFile).search).rules).toBeNull();
  });
});
