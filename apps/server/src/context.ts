import type { Language } from '@skanova/shared/site/constants';
import type { Auth } from './features/auth/auth.ts';
import type { AppServices } from './services.ts';

/** What request handlers, features and jobs share: the app's services and sign-in accounts. */
export interface AppContext extends AppServices {
  /** Sign-in accounts and sessions (better-auth). */
  auth: Auth;
}

// Who is calling (features/auth/caller.ts finds them from the session): declared here, beside the
// context every feature receives, so that features name their caller without importing the auth
// feature.

export interface SignedInUser {
  userId: string;
  email: string;
  role: 'affiliate' | 'admin';
}

export interface AffiliateCaller extends SignedInUser {
  affiliateId: string;
  firstName: string | null;
  language: Language;
  status: 'pending' | 'active' | 'refused';
}
