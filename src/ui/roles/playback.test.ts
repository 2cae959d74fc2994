import { describe, expect, it } from 'vitest';
import { INITIAL_PLAYBACK, type Playback, type PlaybackAction, playbackStep } from './playback';

const run = (actions: PlaybackAction[], count = 3, from: Playback = INITIAL_PLAYBACK) =>
  actions.reduce((s, a) => playbackStep(s, a, count), from);

describe('playbackStep', () => {
  it('plays from the first event to the last and stops there', () => {
    expect(run([{ type: 'play' }])).toEqual({ index: 0, playing: true });
    expect(run([{ type: 'play' }, { type: 'tick' }])).toEqual({ index: 1, playing: true });
    expect(run([{ type: 'play' }, { type: 'tick' }, { type: 'tick' }])).toEqual({ index: 2, playing: false });
    expect(run([{ type: 'play' }, { type: 'tick' }, { type: 'tick' }, { type: 'tick' }])).toEqual({ index: 2, playing: false });
  });

  it('restarts a play from the end, and resumes one from the middle', () => {
    expect(run([{ type: 'play' }], 3, { index: 2, playing: false })).toEqual({ index: 0, playing: true });
    expect(run([{ type: 'play' }], 3, { index: 1, playing: false })).toEqual({ index: 1, playing: true });
  });

  it('pauses on any manual move, and clamps it', () => {
    expect(run([{ type: 'play' }, { type: 'next' }])).toEqual({ index: 1, playing: false });
    expect(run([{ type: 'next' }, { type: 'next' }, { type: 'next' }, { type: 'next' }])).toEqual({ index: 2, playing: false });
    expect(run([{ type: 'prev' }])).toEqual({ index: 0, playing: false });
    expect(run([{ type: 'seek', index: 9 }])).toEqual({ index: 2, playing: false });
    expect(run([{ type: 'play' }, { type: 'toggle' }])).toEqual({ index: 0, playing: false });
  });

  it('ignores ticks while paused, and resets to the overview', () => {
    expect(run([{ type: 'next' }, { type: 'tick' }])).toEqual({ index: 0, playing: false });
    expect(run([{ type: 'play' }, { type: 'tick' }, { type: 'reset' }])).toEqual(INITIAL_PLAYBACK);
  });

  it('has nothing to play without events', () => {
    expect(run([{ type: 'play' }], 0)).toEqual(INITIAL_PLAYBACK);
  });
});
