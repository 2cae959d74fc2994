// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { View } from '../../state';
import { Header } from './Header';

afterEach(cleanup);

function pages(view: View, run?: string) {
  render(<Header sources={[]} isDemo={false} isDemoRun={false} view={view} served={null} run={run} />);
  const buttons = within(screen.getByRole('navigation', { name: 'Pages' })).getAllByRole('button');
  return buttons.map((b) => ({ name: b.textContent, current: b.getAttribute('aria-current'), title: b.getAttribute('title') }));
}

describe('the app bar’s pages', () => {
  it('lists the pages in order, Run only with a run open', () => {
    expect(pages('list', 'runs/a').map((p) => p.name)).toEqual([
      'Run',
      'Rollouts',
      'Groups',
      'Failure modes',
      'Checkpoints',
      'Queue',
      'Regrade',
    ]);
    cleanup();
    expect(pages('list').map((p) => p.name)).toEqual(['Rollouts', 'Groups', 'Failure modes', 'Checkpoints', 'Queue', 'Regrade']);
  });

  it('marks the page of the view as current, Rollouts for a rollout too, and none for a view no page is', () => {
    const current = (view: View) => {
      const names = pages(view, 'runs/a').flatMap((p) => (p.current === 'page' ? [p.name] : []));
      cleanup();
      return names;
    };
    expect(current('run')).toEqual(['Run']);
    expect(current('rollout')).toEqual(['Rollouts']);
    expect(current('list')).toEqual(['Rollouts']);
    expect(current('modes')).toEqual(['Failure modes']);
    expect(current('regrade')).toEqual(['Regrade']);
    expect(current('search')).toEqual([]);
  });

  it('says what the newer pages are for; the first three need no title', () => {
    const titled = pages('list', 'runs/a').map((p) => [p.name, p.title !== null]);
    expect(titled).toEqual([
      ['Run', false],
      ['Rollouts', false],
      ['Groups', false],
      ['Failure modes', true],
      ['Checkpoints', true],
      ['Queue', true],
      ['Regrade', true],
    ]);
  });
});
