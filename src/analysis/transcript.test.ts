import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment } from '../testing/builders';
import { isTextOnly, isTextOnlyRecord, messagesSeenBefore, visibleMessages } from './transcript';

const transcript = [
  { role: 'user', content: 'Weather in Oslo?' },
  { role: 'assistant', content: '', tool_calls: [{ id: 'w1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
  { role: 'tool', tool_call_id: 'w1', content: 'rain' },
  { role: 'assistant', content: 'It rains.' },
];
const textSeg = (transcript_index: number, text: string) =>
  buildSegment({ input_ids: [], generated_ids: [], old_logprobs: [], text, transcript_index, tool_call_id: null });

describe('text-only segments', () => {
  it('are told apart from token segments', () => {
    expect(isTextOnly(textSeg(3, 'It rains.'))).toBe(true);
    expect(isTextOnly(buildSegment())).toBe(false);
    expect(isTextOnly(buildSegment({ input_ids: [], generated_ids: [], old_logprobs: [] }))).toBe(false);
  });

  it('make a text-only record only when every generation is one', () => {
    expect(isTextOnlyRecord(buildRollout({ transcript, segments: [textSeg(1, ''), textSeg(3, 'It rains.')] }))).toBe(true);
    expect(isTextOnlyRecord(buildRollout({ transcript, segments: [textSeg(1, ''), buildSegment()] }))).toBe(false);
    expect(isTextOnlyRecord(buildRollout({ segments: [] }))).toBe(false);
  });

  it('saw the transcript up to the message they produced, or their own recorded context', () => {
    const r = buildRollout({ transcript, segments: [textSeg(1, ''), textSeg(3, 'It rains.')] });
    expect(visibleMessages(r, 0)).toEqual(transcript.slice(0, 1));
    expect(visibleMessages(r, 1)).toEqual(transcript.slice(0, 3));
    const own = buildRollout({ segments: [{ ...textSeg(0, 'x'), context_messages: [{ role: 'system', content: 'be brief' }] }] });
    expect(visibleMessages(own, 0)).toEqual([{ role: 'system', content: 'be brief' }]);
    expect(visibleMessages(buildRollout(), 0)).toBeNull();
  });
});

describe('messagesSeenBefore', () => {
  it('counts the previous context and the message it produced as seen; the rest is new', () => {
    const r = buildRollout({ transcript, segments: [textSeg(1, ''), textSeg(3, 'It rains.')] });
    expect(messagesSeenBefore(r, 0)).toEqual({ seen: 0, rewritten: false });
    // Step 2 saw user, the call (produced by step 1) and the tool's answer: two were seen, one is new.
    expect(messagesSeenBefore(r, 1)).toEqual({ seen: 2, rewritten: false });
  });

  it('says when the previous context did not survive (a summary replaced it)', () => {
    const first = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'long history' },
    ];
    const second = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'summary of it' },
    ];
    const r = buildRollout({
      segments: [
        { ...textSeg(0, 'a'), context_messages: first },
        { ...textSeg(0, 'b'), context_messages: second },
      ],
    });
    expect(messagesSeenBefore(r, 1)).toEqual({ seen: 1, rewritten: true });
  });
});
