/** Copies text; a failure (permission refused, no clipboard) is only logged (spec §8). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (error) {
    console.warn('Copy to clipboard failed', error);
    return false;
  }
}
