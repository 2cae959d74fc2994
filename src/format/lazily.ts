/**
 * A value built on first call, then kept: for schemas and Intl objects, whose building is work a script
 * would otherwise do when it loads, whether or not anything ever needs them (docs/adr/0031, 0034).
 */
export function lazily<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
}
