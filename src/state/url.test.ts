import { describe, expect, it } from 'vitest';
import { intents, readSelection, withRollout, withSources } from './url';

describe('selection in the query string', () => {
  it('parses an address once: the same string gives the same frozen selection, another string a new one', () => {
    const search = '?src=a&src=b&run=r&steps=2-5&a=x&b=y&view=compare';
    const first = readSelection(search);
    expect(readSelection(search)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.sources) && Object.isFrozen(first.steps)).toBe(true);
    // Shared by every reader, so a change must fail rather than reach the next one.
    expect(() => (first.sources as string[]).push('c')).toThrow(TypeError);
    const other = readSelection('?src=a');
    expect(other).not.toBe(first);
    expect(other.sources).toEqual(['a']);
    expect(readSelection(search)).toEqual(first);
  });

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
      scanners: false,
      rules: null,
      mismatchAbove: null,
      run: null,
      steps: null,
      vsSteps: null,
      query: '',
      compare: null,
      cohorts: { a: null, b: null },
    });
  });

  it('search and compare pages: the query and the two keys live in the URL', () => {
    const searched = intents.toSearch('?src=x&rollout=r&tab=tokens', 'tool:edit "a b"');
    expect(searched.push).toBe(true);
    expect(readSelection(searched.search)).toMatchObject({ view: 'search', query: 'tool:edit "a b"', rollout: 'r', tab: 'steps' });
    expect(readSelection(intents.setQuery(searched.search, '').search)).toMatchObject({ view: 'search', query: '' });
    const compared = intents.toCompare('?src=x', 'r-1#a', 'r-2');
    expect(readSelection(compared.search)).toMatchObject({ view: 'compare', compare: { a: 'r-1#a', b: 'r-2' } });
    // A compare link missing a side opens the run list.
    expect(readSelection('?view=compare&a=r-1').view).toBe('list');
    const cp = intents.toCheckpoints('?src=x', { a: 'policy:v1', b: 'steps:10-20' });
    expect(readSelection(cp.search)).toMatchObject({ view: 'checkpoints', cohorts: { a: 'policy:v1', b: 'steps:10-20' } });
    expect(readSelection(intents.toCheckpoints(cp.search, { b: 'file:x.jsonl' }).search).cohorts).toEqual({
      a: 'policy:v1',
      b: 'file:x.jsonl',
    });
    expect(readSelection(intents.toToken('?src=x', 'r-1', 2, 40).search)).toMatchObject({
      view: 'rollout',
      tab: 'tokens',
      seq: 2,
      token: 40,
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

  it('opening a rollout clears what was selected inside another, and Back to the list keeps the rollout selected', () => {
    const inTokens = '?src=a&rollout=r-1&view=rollout&tab=tokens&seq=2&tok=5&adv=dr';
    const opened = intents.toRollout(inTokens, 'r-2', 'audit', 3);
    expect(opened.push).toBe(true);
    expect(readSelection(opened.search)).toMatchObject({
      sources: ['a'],
      rollout: 'r-2',
      view: 'rollout',
      tab: 'audit',
      step: 3,
      seq: null,
      token: null,
      drGrpo: true,
    });
    const list = intents.backToList(opened.search);
    expect(list).toEqual({ search: '?src=a&rollout=r-2&adv=dr', push: true });
    expect(intents.toGroups(inTokens)).toEqual({ search: '?src=a&rollout=r-1&view=groups&adv=dr', push: true });
    expect(intents.toAllRollouts('?src=a&rollout=gone&view=rollout').search).toBe('?src=a');
  });

  it('moves within a page replace the history entry, and defaults leave no parameter behind', () => {
    const at = '?rollout=r&view=rollout&tab=tokens';
    expect(intents.showTab(at, 'steps')).toEqual({ search: '?rollout=r&view=rollout', push: false });
    expect(intents.selectStep('?rollout=r&view=rollout', 7).search).toBe('?rollout=r&view=rollout&step=7');
    expect(intents.selectToken(at, 'training', null).search).toBe(`${at}&seq=training`);
    expect(intents.selectToken(`${at}&seq=training&tok=4`, 1, 9).search).toBe(`${at}&seq=1&tok=9`);
    expect(intents.showTokenTarget(at, { seq: 0, token: 12, drift: true }).search).toBe(`${at}&seq=0&tok=12&shade=drift`);
    expect(intents.shadeByDrift(`${at}&shade=drift`, false).search).toBe(at);
    expect(intents.advantageMode('?src=a', true)).toEqual({ search: '?src=a&adv=dr', push: false });
    expect(intents.advantageMode('?src=a&adv=dr', false).search).toBe('?src=a');
    expect(intents.selectRollout('?src=a&rollout=r', null)).toEqual({ search: '?src=a', push: false });
    expect(intents.openSources(['local:x.jsonl'])).toEqual({ search: '?src=local:x.jsonl', push: true });
  });
});

describe('read options in the URL', () => {
  it('a mapping and unknown=finished are read back; opening other sources keeps the latter only', () => {
    const chosen = intents.readWith('?src=a.jsonl', { mapping: '{"reward":"score"}', unknownAsFinished: true });
    expect(chosen.push).toBe(true);
    expect(readSelection(chosen.search)).toMatchObject({ sources: ['a.jsonl'], mapping: '{"reward":"score"}', unknownAsFinished: true });
    expect(readSelection(intents.readWith(chosen.search, { mapping: null, unknownAsFinished: false }).search)).toMatchObject({
      mapping: null,
      unknownAsFinished: false,
    });
    expect(readSelection(intents.readWith(chosen.search, { unknownAsFinished: false }).search).mapping).toBe('{"reward":"score"}');
    expect(readSelection(intents.openSources(['b.jsonl'], chosen.search).search)).toMatchObject({
      sources: ['b.jsonl'],
      mapping: null,
      unknownAsFinished: true,
    });
  });

  it('holds the run list filter "mismatch above X" (mis=) and opens the token view on a token target from any tab', () => {
    expect(readSelection('?mis=0.25').mismatchAbove).toBe(0.25);
    for (const junk of ['-1', 'abc', '1e3', 'Infinity', '']) expect(readSelection(`?mis=${junk}`).mismatchAbove).toBeNull();
    expect(intents.mismatchAbove('?src=a', 0.5).search).toBe('?src=a&mis=0.5');
    expect(intents.mismatchAbove('?src=a&mis=0.5', null).search).toBe('?src=a');
    expect(intents.mismatchAbove('?src=a&mis=0.5', -2).search).toBe('?src=a');
    const at = intents.selectToken('?rollout=r&view=rollout&tab=mismatch', 'training', 12).search;
    expect(readSelection(at)).toMatchObject({ tab: 'tokens', seq: 'training', token: 12 });
    expect(readSelection('?tab=mismatch').tab).toBe('mismatch');
  });
});

describe('a run (run=)', () => {
  it('opens on the run page; steps= and vs= are training-step ranges; the run list is view=list', () => {
    const s = readSelection('?run=https://bucket.test/run/index/&steps=12-10&vs=3');
    expect(s).toMatchObject({
      run: 'https://bucket.test/run/index/',
      view: 'run',
      steps: { from: 10, to: 12 },
      vsSteps: { from: 3, to: 3 },
    });
    expect(readSelection('?run=r/&view=list').view).toBe('list');
    expect(readSelection('?run=r/&steps=x').steps).toBeNull();
    // Files have no training-step selection.
    expect(readSelection('?src=a.jsonl&steps=1-2').steps).toBeNull();
  });

  it('opens steps in the run list or groups, back to the run page, and keeps Back to list a list', () => {
    const open = intents.openSteps('?run=r/&rollout=x', { from: 4, to: 6 }, 'list');
    expect(open).toEqual({ search: '?run=r/&view=list&steps=4-6', push: true });
    const inRollout = intents.toRollout(open.search, 'k').search;
    expect(readSelection(intents.backToList(inRollout).search)).toMatchObject({ view: 'list', steps: { from: 4, to: 6 } });
    expect(readSelection(intents.toRun(inRollout).search)).toMatchObject({ view: 'run', rollout: null, steps: { from: 4, to: 6 } });
    expect(intents.selectSteps('?run=r/', { from: 2, to: 2 })).toEqual({ search: '?run=r/&steps=2', push: false });
    expect(intents.compareSteps('?run=r/&vs=1-2', null).search).toBe('?run=r/');
    expect(intents.openRun('http://h/i/manifest.json').search).toBe('?run=http://h/i/manifest.json');
    // Files keep their list at view absent.
    expect(intents.backToList('?src=a&view=rollout&rollout=k').search).toBe('?src=a&rollout=k');
  });
});
