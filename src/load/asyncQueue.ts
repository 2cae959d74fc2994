/** A push-to-pull bridge: callbacks push values, a `for await` loop pulls them, in order. */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | null = null;
  private failed: { error: unknown } | null = null;
  private closed = false;
  private onFail: ((e: unknown) => void) | null = null;

  push(item: T): void {
    if (this.closed) return;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: item, done: false });
    } else this.items.push(item);
  }

  close(): void {
    this.closed = true;
    if (this.waiting) {
      const w = this.waiting;
      this.waiting = null;
      w({ value: undefined, done: true });
    }
  }

  fail(error: unknown): void {
    this.failed = { error };
    this.closed = true;
    this.onFail?.(error);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const next = this.items.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (this.failed) throw this.failed.error;
      if (this.closed) return;
      const r = await new Promise<IteratorResult<T>>((resolve, reject) => {
        this.waiting = resolve;
        this.onFail = reject;
      });
      this.onFail = null;
      if (r.done) return;
      yield r.value;
    }
  }
}
