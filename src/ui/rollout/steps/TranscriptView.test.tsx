// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TranscriptMessage } from '../../../format';
import { TranscriptView } from './TranscriptView';

describe('TranscriptView', () => {
  it('says a voice turn recorded as audio alone, and shows a text turn as text', () => {
    const messages = [
      { role: 'user', content: null, audio_only: true },
      { role: 'assistant', content: 'How can I help?' },
      { role: 'assistant', content: null },
    ] as unknown as TranscriptMessage[];
    render(<TranscriptView messages={messages} />);
    const items = screen.getAllByRole('listitem');
    expect(items[0]?.textContent).toBe('userAudio only: the source recorded no text of this speech.');
    expect(items[1]?.textContent).toBe('assistantHow can I help?');
    // A turn with neither text nor audio says nothing it does not know.
    expect(items[2]?.textContent).toBe('assistant');
  });
});
