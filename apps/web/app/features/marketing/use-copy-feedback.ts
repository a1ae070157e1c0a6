import { useState } from 'react';
import { copyText } from '../../lib/clipboard';

/**
 * Copy to the clipboard and say so (docs/product/messages.md#confirmations): the confirmation is
 * shown in a status region next to the button (not window.alert, which blocks the page); a failed
 * copy is only logged.
 */
export function useCopyFeedback(): {
  message: string | null;
  copy: (text: string, confirmation: string) => Promise<void>;
} {
  const [message, setMessage] = useState<string | null>(null);
  return {
    message,
    async copy(text, confirmation) {
      setMessage(null);
      if (await copyText(text)) setMessage(confirmation);
    },
  };
}
