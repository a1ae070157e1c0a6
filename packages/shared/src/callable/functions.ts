import type { AdminFunctions } from '../admin/functions.ts';
import type { AffiliateFunctions } from '../affiliate/functions.ts';
import type { AttributionFunctions } from '../attribution/functions.ts';
import type { LandingFunctions } from '../landing/functions.ts';
import type { PayoutFunctions } from '../payouts/functions.ts';
import type { RewardsFunctions } from '../rewards/functions.ts';
import type { SupportFunctions } from '../support/functions.ts';
import type { WebhookFunctions } from '../webhooks/functions.ts';

// The callable server functions (docs/product/calls-and-data.md#callable-protocol): `POST /api/fn/<name>`. Each domain declares its own
// functions in `<domain>/functions.ts` (request and response types) with their input schemas in
// `<domain>/schemas.ts`; this is the whole contract. The web client is typed by it, and the server's
// `defineCallable` checks every definition against it (ADR 008).

export const CALLABLE_PATH_PREFIX = '/api/fn/';

export interface CallableFunctions
  extends
    LandingFunctions,
    SupportFunctions,
    AffiliateFunctions,
    AttributionFunctions,
    PayoutFunctions,
    RewardsFunctions,
    AdminFunctions,
    WebhookFunctions {}

export type CallableName = keyof CallableFunctions;
