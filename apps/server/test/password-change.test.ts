import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, TEST_PUBLIC_URL, createTestApp, memoryMailer } from './helpers/app.ts';
import {
  type TestAffiliate,
  cookieFrom,
  createTestAffiliate,
  requestResetToken,
  signIn,
} from './helpers/affiliates.ts';
import { resetPassword } from './helpers/operators.ts';

// What a change of password ends (docs/decisions/016-security-hardening.md): every reset link issued
// before it, whether the change was made with the current password or with a reset link; of several
// links, only the newest works; and every other session of the account, whatever the client asks.
// Runs on PGlite and PostgreSQL.

const mail = memoryMailer();
let t: TestApp;
let ipCounter = 0;
const nextIp = () => `10.71.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  t = await createTestApp({ mailer: mail.mailer });
});
afterAll(() => t.close());

/** Asks for a reset link as the forgotten-password form does; answers the token e-mailed. */
const requestLink = (affiliate: TestAffiliate) => requestResetToken(t, mail.sent, affiliate.email, nextIp());

/** Changes the password from the settings page's session, with what the client chose to send. */
function changePassword(cookie: string, currentPassword: string, newPassword: string, extra = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/change-password',
    headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, cookie },
    remoteAddress: nextIp(),
    payload: { currentPassword, newPassword, ...extra },
  });
}

async function sessionEmail(cookie: string): Promise<string | null> {
  const response = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
  return (response.json() as { user?: { email?: string } } | null)?.user?.email ?? null;
}

describe('reset links', () => {
  it('end when the password is changed with the current one', async () => {
    const affiliate = await createTestAffiliate(t);
    const link = await requestLink(affiliate);
    expect((await changePassword(affiliate.cookie, affiliate.password, 'changed password 1')).statusCode).toBe(200);
    expect((await resetPassword(t, link, 'set by an old link 1', nextIp())).status).toBe(400);
    expect((await signIn(t, affiliate.email, 'changed password 1', nextIp())).status).toBe(200);
  });

  it('end when the password is reset with another link: only the newest link works', async () => {
    const affiliate = await createTestAffiliate(t);
    const first = await requestLink(affiliate);
    const second = await requestLink(affiliate);
    const third = await requestLink(affiliate);
    // An older link stops working as soon as a newer one is issued.
    expect((await resetPassword(t, first, 'set by the first link', nextIp())).status).toBe(400);
    expect((await resetPassword(t, third, 'set by the third link', nextIp())).status).toBe(200);
    // And once a link has been used, none issued before it works either.
    expect((await resetPassword(t, second, 'set by the second link', nextIp())).status).toBe(400);
    expect((await signIn(t, affiliate.email, 'set by the third link', nextIp())).status).toBe(200);
  });
});

describe('other sessions', () => {
  it.each([
    ['says nothing', {}],
    ['asks to keep them', { revokeOtherSessions: false }],
  ])('end when the password is changed and the client %s', async (_, extra) => {
    const affiliate = await createTestAffiliate(t);
    const phone = await signIn(t, affiliate.email, affiliate.password, nextIp());
    const laptop = await signIn(t, affiliate.email, affiliate.password, nextIp());
    expect(await sessionEmail(phone.cookie)).toBe(affiliate.email);
    const change = await changePassword(laptop.cookie, affiliate.password, 'changed password 2', extra);
    expect(change.statusCode).toBe(200);
    // The device that made the change stays signed in (with the new session cookie it was given, if
    // any); every other session has ended.
    expect(await sessionEmail(cookieFrom(change.headers['set-cookie']) || laptop.cookie)).toBe(affiliate.email);
    expect(await sessionEmail(phone.cookie)).toBeNull();
    expect(await sessionEmail(affiliate.cookie)).toBeNull();
  });
});
