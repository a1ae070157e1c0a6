import type { AppContext } from '../context.ts';
import { createOperator as createOperatorAccount } from '../features/admin/operators.ts';

/** The demo's operator: made by the `admin:create` command's function, its password set through the link it prints. */
export async function createOperator(app: AppContext, email: string, password: string): Promise<void> {
  const setup = await createOperatorAccount(app, email);
  const token = new URL(setup.setPasswordUrl).searchParams.get('token');
  if (!token) throw new Error('the operator link carries no token');
  await app.auth.api.resetPassword({ body: { token, newPassword: password } });
}
