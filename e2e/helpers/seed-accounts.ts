/** Accounts e2e/seed.ts creates before the server starts. */
export const SEED_ACCOUNTS = {
  disabled: { email: 'disabled@skanova.test', password: 'disabled-password-1', firstName: 'Dora', disabled: true },
} as const;
