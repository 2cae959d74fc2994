import { compact, idOf, type Json, locator, num, rewardFor, str, unmapped } from './read';
import { arrayShape } from './structural/findConversation';
import { chatTurns, normalizeMessages } from './transcript';
import { type Convert, ConvertError } from './types';

/*
 * OpenAI-style chat JSONL: one conversation per line, `{"messages": [...], "tools": [...]}` as in OpenAI's
 * chat fine-tuning input (FineTuneChatRequestInput: messages, tools, parallel_tool_calls), assistant
 * `tool_calls` answered by `tool` messages carrying `tool_call_id`. Rollout logs add a `reward`.
 * A plain transcript records no ids and no status; they are taken from the line when it has them.
 */

const MAPPED = ['messages', 'reward', 'task_id', 'rollout_id', 'group_id', 'termination'];

export const convertOpenaiChat: Convert = (line, ctx) => {
  const messages = normalizeMessages(line.messages, 'messages');
  const reward = line.reward === undefined || line.reward === null ? null : num(line.reward);
  if (reward === undefined) throw new ConvertError('reward: expected a number or null');
  const { segments, steps } = chatTurns(messages, 0);
  const extra = unmapped(line, MAPPED) ?? {};
  // A transcript does not say why it ended; only a `termination` written on the line does.
  const termination = str(line.termination) ?? 'unknown';
  const rollout = idOf(line.rollout_id) ?? idOf(line.id);
  return [
    compact({
      source_format: 'openai-chat',
      // Without a task id each line is its own task, so no group statistics are invented across lines.
      task_id: idOf(line.task_id) ?? locator(ctx),
      rollout_id: rollout ?? locator(ctx),
      group_id: idOf(line.group_id),
      transcript: messages,
      segments,
      steps: steps.length > 0 ? steps : undefined,
      termination,
      reward: rewardFor(termination, reward, extra),
      extra: Object.keys(extra).length > 0 ? extra : undefined,
    }),
  ];
};

/** Whether a value looks like one chat conversation (used by detection). */
export function isChatLine(v: Json): boolean {
  return (
    Array.isArray(v.messages) &&
    v.messages.length > 0 &&
    v.messages.every((m) => typeof m === 'object' && m !== null && 'role' in m) &&
    // Anthropic blocks, Gemini parts or smolagents roles under `messages` are read by shape, calls and all.
    (arrayShape(v.messages)?.shape ?? 'chat') === 'chat'
  );
}
