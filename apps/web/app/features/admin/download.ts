// Saving a file the server answered as text (a payout export): a Blob behind an object URL, clicked
// through a temporary link with a file name. No inline script and no data: URL, so the page's CSP
// (script-src with hashes, default-src 'self') has nothing to object to.

export function downloadTextFile(fileName: string, content: string, contentType: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has read the URL once the click's task is over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
