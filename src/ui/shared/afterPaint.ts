/**
 * Runs `f` in a task of its own after the next frame is painted: queued from that frame's animation
 * callback, which runs just before its paint. Returns a function that cancels it. While the page is hidden
 * no frame is drawn, so `f` waits until it shows.
 */
export function afterPaint(f: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(f, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}
