/** Saves text as a file the browser downloads (reviews as JSONL, an inferred mapping as JSON). */
export function download(name: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  // The click starts the download synchronously; the URL is not needed after it.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
