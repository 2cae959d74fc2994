import { compact, int, type Json, num } from './read';

/**
 * v1 `sampling` from a generate config as the tools write it (`temperature`, `top_p`, `top_k`,
 * `max_tokens` or `max_completion_tokens` / `max_output_tokens`, `seed`), or undefined when it names none.
 */
export function samplingFrom(config: Json | undefined): Json | undefined {
  if (!config) return undefined;
  const sampling = compact({
    temperature: num(config.temperature),
    top_p: num(config.top_p),
    top_k: int(config.top_k),
    max_new_tokens: int(config.max_tokens) ?? int(config.max_completion_tokens) ?? int(config.max_output_tokens),
    seed: int(config.seed),
  });
  return Object.keys(sampling).length > 0 ? sampling : undefined;
}
