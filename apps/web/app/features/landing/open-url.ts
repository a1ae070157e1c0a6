/**
 * Leaves the page for `url`: the app's custom scheme (the browser hands it to the app, or does nothing
 * when the app is missing) or a store page. One place, so every attempt goes the same way.
 */
export function openUrl(url: string): void {
  window.location.href = url;
}
