import { describe, expect, it } from 'vitest';
import { readSelection, withRollout, withSources } from './url';

describe('selection in the query string', () => {
  it('reads sources in order, once each, and the selected rollout', () => {
    expect(readSelection('?src=local:a.jsonl&src=https://x/b.jsonl&src=local:a.jsonl&rollout=r-1%23a-2')).toEqual({
      sources: ['local:a.jsonl', 'https://x/b.jsonl'],
      rollout: 'r-1#a-2',
    });
    expect(readSelection('')).toEqual({ sources: [], rollout: null });
  });

  it('opening sources drops the old rollout and keeps : and / readable', () => {
    expect(withSources(['local:a b.jsonl', 'https://x/y.jsonl?z=1'])).toBe('?src=local:a+b.jsonl&src=https://x/y.jsonl%3Fz%3D1');
    expect(readSelection(withSources(['https://x/y.jsonl?z=1'])).sources).toEqual(['https://x/y.jsonl?z=1']);
  });

  it('selecting a rollout keeps the sources; null clears it', () => {
    const s = withRollout('?src=local:a.jsonl', 'r-1#a-1');
    expect(readSelection(s)).toEqual({ sources: ['local:a.jsonl'], rollout: 'r-1#a-1' });
    expect(withRollout(s, null)).toBe('?src=local:a.jsonl');
  });
});
