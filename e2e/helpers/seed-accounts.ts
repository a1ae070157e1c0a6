/** Affiliate accounts e2e/seed.ts creates before the server starts. */
export const SEED_ACCOUNTS = {
  disabled: { email: 'disabled@skanova.test', password: 'disabled-password-1', firstName: 'Dora', disabled: true },
} as const;

/** The operator e2e/seed.ts creates with the `admin:create` command's function, password set by its link. */
export const SEED_OPERATOR = { email: 'operator@skanova.test', password: 'operator-password-1' } as const;
