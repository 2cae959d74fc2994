// @vitest-environment happy-dom
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

describe('the reviewer name remembered in this browser', () => {
  it('is read from localStorage once the page is idle, not while the modules load, and written back', async () => {
    localStorage.setItem('trajscope:reviewer', JSON.stringify({ state: { reviewer: 'ann' }, version: 0 }));
    vi.resetModules();
    const store = await import('./reviewerStore');
    const { result } = renderHook(() => store.useReviewer());
    // Not read at import: the first read of localStorage can wait on the browser (reviewerStore.ts).
    expect(result.current).toBe('');
    await waitFor(() => expect(result.current).toBe('ann'));

    const actions = renderHook(() => store.useReviewerActions()).result.current;
    actions.setReviewer('bob');
    await waitFor(() => expect(result.current).toBe('bob'));
    expect(JSON.parse(localStorage.getItem('trajscope:reviewer') ?? '{}').state.reviewer).toBe('bob');
  });
});
