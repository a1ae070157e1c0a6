import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CallableFunctions } from '@skanova/shared/callable/functions';
import { callFunction } from '../../lib/callable';

// Server state of the console's Webhooks tab (docs/product/webhooks.md#endpoints), as queries.ts keeps
// the other tabs': one root per list, so that an action re-fetches exactly the lists it changed.

type Request<N extends keyof CallableFunctions> = CallableFunctions[N]['request'];

export const webhookKeys = {
  endpoints: ['admin', 'webhooks', 'endpoints'] as const,
  deliveries: ['admin', 'webhooks', 'deliveries'] as const,
};

export function useWebhookEndpoints() {
  return useQuery({ queryKey: webhookKeys.endpoints, queryFn: () => callFunction('adminListWebhookEndpoints', {}) });
}

export function useWebhookDeliveries(filters: Request<'adminListWebhookDeliveries'>) {
  return useQuery({
    queryKey: [...webhookKeys.deliveries, filters],
    queryFn: () => callFunction('adminListWebhookDeliveries', filters),
    placeholderData: keepPreviousData,
  });
}
