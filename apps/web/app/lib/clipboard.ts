/** Copies text; a failure (permission refused, no clipboard) is only logged (docs/product/messages.md#confirmations). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (error) {
    console.warn('Copy to clipboard failed', error);
    return false;
  }
}
