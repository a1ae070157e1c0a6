import * as z from 'zod/mini';
import { LANGUAGES } from '../site/constants.ts';
import { storableText } from '../callable/storable-text.ts';
import { formSchema } from '../callable/field-errors.ts';

// The support contact form (docs/product/routes-and-screens.md#support-page). One schema validates the form in
// the browser and the `submitContactForm` server function. It is written with `zod/mini` because the
// support page ships it to the browser and the page's JavaScript budget is small.

/** Subjects of the support contact form (docs/product/routes-and-screens.md#support-page). */
export const CONTACT_SUBJECTS = ['account', 'subscription', 'technical', 'feedback', 'other'] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];

/** Field bounds: a name, an RFC 5321 address, and a message long enough to act on but not a document. */
export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000, messageMin: 10 } as const;

/** Field names in form order (the browser focuses the first invalid one). */
export const CONTACT_FIELDS = ['name', 'email', 'subject', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

// Messages are i18n keys of the `support` namespace, never English text. A missing value stops at
// its "required" message (abort) so the visitor sees one message per field. Every text passes the
// storable-text rule (storable-text.ts).
const requiredText = (requiredKey: string) =>
  z
    .string(requiredKey)
    .check(
      z.trim(),
      z.minLength(1, { error: requiredKey, abort: true }),
      storableText('form.errors.invalidCharacters'),
    );

export const contactRequestSchema = formSchema(
  'support',
  z.object({
    name: requiredText('form.errors.nameRequired').check(z.maxLength(CONTACT_LIMITS.name, 'form.errors.nameTooLong')),
    email: z.pipe(
      requiredText('form.errors.emailRequired').check(
        z.maxLength(CONTACT_LIMITS.email, { error: 'form.errors.emailInvalid', abort: true }),
      ),
      z.email('form.errors.emailInvalid'),
    ),
    subject: z.enum(CONTACT_SUBJECTS, 'form.errors.subjectRequired'),
    message: requiredText('form.errors.messageRequired').check(
      z.minLength(CONTACT_LIMITS.messageMin, 'form.errors.messageTooShort'),
      z.maxLength(CONTACT_LIMITS.message, 'form.errors.messageTooLong'),
    ),
    /** The page's language: support answers in it. */
    language: z.optional(z.enum(LANGUAGES)),
  }),
);

export const contactResponseSchema = z.object({ ticketId: z.string() });

export type ContactRequest = z.output<typeof contactRequestSchema>;
export type ContactResponse = z.output<typeof contactResponseSchema>;
