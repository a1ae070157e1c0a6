import { CallableClientError } from '../../lib/callable';
import { useTranslation } from '../../lib/react-i18n';
import { useAdminErrorMessage } from './admin-format';

/** A failed webhook call's message (docs/product/webhooks.md#endpoints): the tab's own codes first, then the console's. */
export function useWebhookErrorMessage(): (error: unknown) => string {
  const { t, i18n } = useTranslation('webhooks');
  const adminMessage = useAdminErrorMessage();
  return (error) =>
    error instanceof CallableClientError && i18n.exists(`webhooks:errors.${error.code}`)
      ? t(`errors.${error.code}`)
      : adminMessage(error);
}
