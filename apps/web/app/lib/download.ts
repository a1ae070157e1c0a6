// Saving a file made in the browser (a payout export, a QR code, a banner): a Blob behind an object
// URL, clicked through a temporary link with a file name. No inline script and no data: URL, so the
// page's CSP (script-src with hashes, default-src 'self') has nothing to object to.

/** Saves a Blob under a file name, as a link with `download` does. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL; give the browser a moment before releasing it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves text (e.g. a CSV the server answered) as a file of the given type. */
export function downloadTextFile(fileName: string, content: string, contentType: string): void {
  downloadBlob(new Blob([content], { type: contentType }), fileName);
}
