// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Segment } from '../../../format';
import { ActionCell } from './ActionCell';

const closed = { isOpen: () => false, toggle: () => {} };
const textSegment = (more: object): Segment =>
  ({ input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: null, ...more }) as Segment;

describe('ActionCell of a text-only generation', () => {
  it('says a voice run’s speech was recorded as audio alone, and a text answer as text without ids', () => {
    const { unmount } = render(
      <ActionCell
        step={undefined}
        segment={textSegment({ audio_only: true, transcript_index: 5 })}
        segmentIndex={3}
        decoder={null}
        expanded={closed}
      />,
    );
    expect(screen.getByText('Audio only: the source recorded no text or token ids of this speech.')).toBeTruthy();
    expect(screen.queryByText(/^Text only/)).toBeNull();
    unmount();
    render(
      <ActionCell step={undefined} segment={textSegment({ text: 'Let me look.' })} segmentIndex={0} decoder={null} expanded={closed} />,
    );
    expect(screen.getByText('Let me look.')).toBeTruthy();
    expect(screen.getByText(/^Text only: the source recorded no token ids/)).toBeTruthy();
    expect(screen.queryByText(/^Audio only/)).toBeNull();
  });
});
