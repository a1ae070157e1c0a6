import { z } from 'zod';

/** Subjects of the support contact form (spec §2 "Support"). */
export const CONTACT_SUBJECTS = ['account', 'subscription', 'technical', 'feedback', 'other'] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];

export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000, messageMin: 10 } as const;

// Messages are i18n keys of the `support` namespace, never English text.
export const contactRequestSchema = z.object({
  name: z.string().trim().min(1, 'form.errors.nameRequired').max(CONTACT_LIMITS.name, 'form.errors.nameTooLong'),
  email: z
    .string()
    .trim()
    .min(1, 'form.errors.emailRequired')
    .max(CONTACT_LIMITS.email, 'form.errors.emailInvalid')
    .pipe(z.email('form.errors.emailInvalid')),
  subject: z.enum(CONTACT_SUBJECTS, 'form.errors.subjectRequired'),
  message: z
    .string()
    .trim()
    .min(1, 'form.errors.messageRequired')
    .min(CONTACT_LIMITS.messageMin, 'form.errors.messageTooShort')
    .max(CONTACT_LIMITS.message, 'form.errors.messageTooLong'),
  language: z.enum(['fr', 'en']).optional(),
});

export const contactResponseSchema = z.object({ ticketId: z.string() });

export type ContactRequest = z.infer<typeof contactRequestSchema>;
