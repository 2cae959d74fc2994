/*
 * Stepping through a rollout's events for a live demo. `index` -1 is the overview: every event shown,
 * none highlighted. Playing advances one event per tick and stops on the last; any manual move pauses.
 */

export interface Playback {
  index: number;
  playing: boolean;
}

export type PlaybackAction =
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'toggle' }
  | { type: 'next' }
  | { type: 'prev' }
  | { type: 'reset' }
  | { type: 'seek'; index: number }
  | { type: 'tick' };

export const INITIAL_PLAYBACK: Playback = { index: -1, playing: false };

export function playbackStep(state: Playback, action: PlaybackAction, count: number): Playback {
  const last = count - 1;
  if (count === 0) return INITIAL_PLAYBACK;
  switch (action.type) {
    case 'play':
      // From the overview or the end, a play starts again at the first event.
      return { index: state.index < 0 || state.index >= last ? 0 : state.index, playing: true };
    case 'pause':
      return state.playing ? { ...state, playing: false } : state;
    case 'toggle':
      return playbackStep(state, { type: state.playing ? 'pause' : 'play' }, count);
    case 'tick':
      if (!state.playing) return state;
      return state.index >= last ? { ...state, playing: false } : { index: state.index + 1, playing: state.index + 1 < last };
    case 'next':
      return { index: Math.min(last, state.index + 1), playing: false };
    case 'prev':
      return { index: Math.max(0, state.index - 1), playing: false };
    case 'reset':
      return INITIAL_PLAYBACK;
    case 'seek':
      return { index: Math.max(0, Math.min(last, Math.floor(action.index))), playing: false };
  }
}
