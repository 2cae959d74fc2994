import { describe, expect, it } from 'vitest';
import { readSelection, withParams, withReadOptions, withRollout, withSources } from './url';

describe('selection in the query string', () => {
  it('reads sources in order, once each, and the selected rollout', () => {
    expect(readSelection('?src=local:a.jsonl&src=https://x/b.jsonl&src=local:a.jsonl&rollout=r-1%23a-2')).toMatchObject({
      sources: ['local:a.jsonl', 'https://x/b.jsonl'],
      rollout: 'r-1#a-2',
    });
    expect(readSelection('')).toEqual({
      sources: [],
      rollout: null,
      view: 'list',
      tab: 'steps',
      step: null,
      seq: null,
      token: null,
      drGrpo: false,
      drift: false,
      mapping: null,
      unknownAsFinished: false,
    });
  });

  it('opening sources drops the old rollout and keeps : and / readable', () => {
    expect(withSources(['local:a b.jsonl', 'https://x/y.jsonl?z=1'])).toBe('?src=local:a+b.jsonl&src=https://x/y.jsonl%3Fz%3D1');
    expect(readSelection(withSources(['https://x/y.jsonl?z=1'])).sources).toEqual(['https://x/y.jsonl?z=1']);
  });

  it('selecting a rollout keeps the sources; null clears it', () => {
    const s = withRollout('?src=local:a.jsonl', 'r-1#a-1');
    expect(readSelection(s)).toMatchObject({ sources: ['local:a.jsonl'], rollout: 'r-1#a-1' });
    expect(withRollout(s, null)).toBe('?src=local:a.jsonl');
  });

  it('reads the view, tab, step, token sequence, token, advantage mode and shading; ignores junk', () => {
    expect(readSelection('?rollout=r&view=rollout&tab=tokens&step=3&seq=training&tok=120&adv=dr&shade=drift')).toMatchObject({
      view: 'rollout',
      tab: 'tokens',
      step: 3,
      seq: 'training',
      token: 120,
      drGrpo: true,
      drift: true,
    });
    expect(readSelection('?view=rollout&tab=evil&step=-1&seq=x&tok=1e9&shade=sepia')).toMatchObject({
      view: 'list',
      tab: 'steps',
      step: null,
      seq: null,
      token: null,
      drGrpo: false,
      drift: false,
    });
    expect(readSelection('?view=groups').view).toBe('groups');
    expect(readSelection('?seq=2').seq).toBe(2);
  });

  it('withParams sets and removes parameters, keeping the others', () => {
    expect(withParams('?src=a&rollout=r', { view: 'rollout', step: '2' })).toBe('?src=a&rollout=r&view=rollout&step=2');
    expect(withParams('?src=a&step=2', { step: null })).toBe('?src=a');
  });
});

describe('read options in the URL', () => {
  it('a mapping and unknown=finished are read back; opening other sources keeps the latter only', () => {
    const search = withReadOptions('?src=a.jsonl', { mapping: '{"reward":"score"}', unknownAsFinished: true });
    expect(readSelection(search)).toMatchObject({ sources: ['a.jsonl'], mapping: '{"reward":"score"}', unknownAsFinished: true });
    expect(readSelection(withReadOptions(search, { mapping: null, unknownAsFinished: false }))).toMatchObject({
      mapping: null,
      unknownAsFinished: false,
    });
    expect(readSelection(withSources(['b.jsonl'], search))).toMatchObject({ sources: ['b.jsonl'], mapping: null, unknownAsFinished: true });
  });
});
