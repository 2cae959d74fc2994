// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { type Review, reviewsOptions } from '../../load';
import { useReviewActions, useReviews } from './useReviews';

// happy-dom has no IndexedDB: the store falls back to memory (persistent: false), as a browser that refuses it does.
const DIGEST = 'sha256:feed';

const review = (rollout_id: string, verdict: Review['verdict'], note = ''): Review => ({
  rollout_id,
  attempt_id: 'a-1',
  verdict,
  note,
  reviewer: 'ana',
  timestamp: '2026-12-01T12:00:00.000Z',
});

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
const client = new QueryClient();

describe('the review store hooks', () => {
  it('show a saved review at once, replace it, remove it, and import others over it', async () => {
    const { result } = renderHook(() => ({ stored: useReviews(DIGEST), actions: useReviewActions() }), { wrapper });
    await waitFor(() => expect(result.current.stored.isPending).toBe(false));
    expect(result.current.stored).toMatchObject({ error: null, persistent: false });
    expect(result.current.stored.reviews.size).toBe(0);

    await act(() => result.current.actions.save(DIGEST, review('r-1', 'agree')));
    // The cache is updated before the store is written: the mark shows without waiting for the disk.
    await waitFor(() => expect(result.current.stored.reviews.get('r-1#a-1')?.verdict).toBe('agree'));
    await act(() => result.current.actions.save(DIGEST, review('r-1', 'disagree', 'reward too high')));
    await waitFor(() =>
      expect(result.current.stored.reviews.get('r-1#a-1')).toMatchObject({ verdict: 'disagree', note: 'reward too high' }),
    );
    expect(result.current.stored.reviews.size).toBe(1);

    const counts = await act(() => result.current.actions.importReviews(DIGEST, [review('r-1', 'unsure'), review('r-2', 'agree')]));
    expect(counts).toEqual({ added: 1, replaced: 1 });
    await waitFor(() =>
      expect([...result.current.stored.reviews.values()].map((r) => [r.rollout_id, r.verdict])).toEqual([
        ['r-1', 'unsure'],
        ['r-2', 'agree'],
      ]),
    );

    await act(() => result.current.actions.remove(DIGEST, { rollout_id: 'r-1', attempt_id: 'a-1' }));
    await waitFor(() => expect([...result.current.stored.reviews.keys()]).toEqual(['r-2#a-1']));
    await act(() => result.current.actions.clear(DIGEST));
    await waitFor(() => expect(result.current.stored.reviews.size).toBe(0));
    // What was written is what a fresh read of the store finds.
    await client.invalidateQueries({ queryKey: reviewsOptions(DIGEST).queryKey });
    await act(() => result.current.actions.save(DIGEST, review('r-3', 'agree')));
    await client.invalidateQueries({ queryKey: reviewsOptions(DIGEST).queryKey });
    await waitFor(() => expect([...result.current.stored.reviews.keys()]).toEqual(['r-3#a-1']));
  });

  it('reads nothing without a digest', () => {
    const { result } = renderHook(() => useReviews(null), { wrapper });
    expect(result.current).toMatchObject({ isPending: true, error: null });
    expect(result.current.reviews.size).toBe(0);
  });

  it('keeps reviews of one file apart from another’s', async () => {
    const { result } = renderHook(() => ({ a: useReviews('sha256:a'), b: useReviews('sha256:b'), actions: useReviewActions() }), {
      wrapper,
    });
    await waitFor(() => expect(result.current.b.isPending).toBe(false));
    await act(() => result.current.actions.save('sha256:a', review('r-9', 'agree')));
    await waitFor(() => expect(result.current.a.reviews.size).toBe(1));
    expect(result.current.b.reviews.size).toBe(0);
  });
});
