/** Hands the file to the browser's downloads (an `<a download>` click on an object URL). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click starts the download synchronously; the URL is released once the browser has taken it.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
