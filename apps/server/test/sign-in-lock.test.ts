import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp, memoryMailer } from './helpers/app.ts';
import { type TestAffiliate, createTestAffiliate, requestResetToken, signIn } from './helpers/affiliates.ts';
import { resetPassword } from './helpers/operators.ts';

// The per-address sign-in lock (a hostile client's report: "anyone can lock an owner out"). Ten
// failed sign-ins for an address, from any IPs, lock it for the hour: the protection stays. But the
// owner has a way out: the lock answers ADDRESS_LOCKED (the forms say "reset your password"), and a
// successful password reset clears the address's lock. Runs on PGlite and PostgreSQL.

const mail = memoryMailer();
let t: TestApp;
let ipCounter = 0;
const nextIp = () => `10.68.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  t = await createTestApp({ mailer: mail.mailer });
});
afterAll(() => t.close());

/** Someone else, from ten addresses, tries passwords for the account. */
async function lockOut(affiliate: TestAffiliate) {
  const limit = t.config.RATE_LIMIT_SIGNIN_PER_EMAIL_PER_HOUR;
  for (let i = 0; i < limit; i++) expect((await signIn(t, affiliate.email, 'a guess', nextIp())).status).toBe(401);
}

/** The owner asks for a reset link and answers the e-mail; answers the reset's status. */
async function resetByEmail(affiliate: TestAffiliate, newPassword: string): Promise<number> {
  const token = await requestResetToken(t, mail.sent, affiliate.email, nextIp());
  return (await resetPassword(t, token, newPassword, nextIp())).status;
}

describe('the per-address sign-in lock', () => {
  it('refuses even the right password once locked, says how to get back in, and a failed reset changes nothing', async () => {
    const owner = await createTestAffiliate(t);
    await lockOut(owner);
    const locked = await signIn(t, owner.email, owner.password, nextIp());
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ code: 'ADDRESS_LOCKED', message: expect.stringMatching(/reset the password/i) });
    expect((await resetPassword(t, 'not-a-token-at-all-000000', 'my new password 2', nextIp())).status).toBe(400);
    expect((await signIn(t, owner.email, owner.password, nextIp())).body.code).toBe('ADDRESS_LOCKED');
  });

  it('is cleared by a successful password reset: the owner signs in at once', async () => {
    const owner = await createTestAffiliate(t);
    const bystander = await createTestAffiliate(t);
    await lockOut(owner);
    await lockOut(bystander);

    expect(await resetByEmail(owner, 'my new password 1')).toBe(200);
    const signedIn = await signIn(t, owner.email, 'my new password 1', nextIp());
    expect(signedIn.status).toBe(200);
    // Only that address: another locked account stays locked.
    expect((await signIn(t, bystander.email, bystander.password, nextIp())).status).toBe(429);
  });

  it('still counts failures after the reset: the protection stays', async () => {
    const owner = await createTestAffiliate(t);
    await lockOut(owner);
    expect(await resetByEmail(owner, 'my new password 3')).toBe(200);
    await lockOut(owner);
    expect((await signIn(t, owner.email, 'my new password 3', nextIp())).body.code).toBe('ADDRESS_LOCKED');
  });

  it('answers the per-IP limit as before (no lock message: a reset would not help)', async () => {
    const ip = nextIp();
    const statuses: { status: number; code?: string }[] = [];
    for (let i = 0; i < t.config.RATE_LIMIT_SIGNIN_PER_MINUTE + 1; i++) {
      const response = await signIn(t, `nobody${i}@example.com`, 'whatever123', ip);
      statuses.push({ status: response.status, code: response.body.code });
    }
    expect(statuses.at(-1)).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS' });
  });
});

describe('concurrent guesses', () => {
  it('evaluates at most the address limit of 40 simultaneous wrong guesses from 40 addresses; the rest are refused', async () => {
    const owner = await createTestAffiliate(t);
    const limit = t.config.RATE_LIMIT_SIGNIN_PER_EMAIL_PER_HOUR;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn(t, owner.email, `wrong guess ${i}`, nextIp())),
    );
    const evaluated = answers.filter((answer) => answer.status === 401).length;
    const refused = answers.filter((answer) => answer.status === 429 && answer.body.code === 'ADDRESS_LOCKED').length;
    expect(evaluated).toBeLessThanOrEqual(limit);
    expect(evaluated + refused).toBe(40);
    // The right password, once the guesses are spent, is refused too.
    expect((await signIn(t, owner.email, owner.password, nextIp())).status).toBe(429);
  });

  it('refuses the right password sent in a burst after the limit is spent', async () => {
    const owner = await createTestAffiliate(t);
    const limit = t.config.RATE_LIMIT_SIGNIN_PER_EMAIL_PER_HOUR;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        signIn(t, owner.email, i === 25 ? owner.password : `wrong guess ${i}`, nextIp()),
      ),
    );
    // Whatever order the server took them in, at most `limit` wrong guesses were evaluated; the right
    // password is one more only if it came before the limit was spent (then it gave its place back).
    const failed = answers.filter((answer) => answer.status === 401).length;
    const signedIn = answers.filter((answer) => answer.status === 200).length;
    expect(failed).toBeLessThanOrEqual(limit);
    expect(failed + signedIn).toBeLessThanOrEqual(limit + 1);
    expect(answers.filter((answer) => answer.status === 429).length).toBeGreaterThanOrEqual(30 - limit - 1);
  });

  it('does not count a successful sign-in against its address', async () => {
    const owner = await createTestAffiliate(t);
    const limit = t.config.RATE_LIMIT_SIGNIN_PER_EMAIL_PER_HOUR;
    for (let i = 0; i < limit + 2; i++)
      expect((await signIn(t, owner.email, owner.password, nextIp())).status).toBe(200);
    for (let i = 0; i < limit - 1; i++) expect((await signIn(t, owner.email, 'a guess', nextIp())).status).toBe(401);
    expect((await signIn(t, owner.email, owner.password, nextIp())).status).toBe(200);
  });
});
