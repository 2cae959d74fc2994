import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** Who is reviewing: typed once, remembered in this browser (localStorage), written into each review. */
export interface ReviewerState {
  reviewer: string;
}

export const initialReviewerState: ReviewerState = { reviewer: '' };

/** Names are kept short: they go into every exported line. */
export const MAX_REVIEWER_LENGTH = 80;

export function setReviewer(state: ReviewerState, name: string): ReviewerState {
  const reviewer = name.slice(0, MAX_REVIEWER_LENGTH);
  return state.reviewer === reviewer ? state : { ...state, reviewer };
}

interface ReviewerActions {
  setReviewer(name: string): void;
}

const useReviewerStore = create<ReviewerState & { actions: ReviewerActions }>()(
  persist(
    (set) => ({
      ...initialReviewerState,
      actions: { setReviewer: (name) => set((s) => setReviewer(s, name)) },
    }),
    {
      name: 'trajscope:reviewer',
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ reviewer: s.reviewer }),
      // Read when the page is idle, not while the app's modules load: the first read of localStorage in a
      // page waits on the browser, and took 100 ms of a run page's start in a profile (the name is only
      // needed once a review is written).
      skipHydration: true,
    },
  ),
);
// No `persist` API where there is no localStorage (node, in tests): nothing to read then.
const hydrate = () => void useReviewerStore.persist?.rehydrate();
if (typeof requestIdleCallback === 'function') requestIdleCallback(hydrate, { timeout: 2000 });
else setTimeout(hydrate, 0);

export const useReviewer = () => useReviewerStore((s) => s.reviewer);
export const useReviewerActions = () => useReviewerStore((s) => s.actions);
