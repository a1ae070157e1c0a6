import { bigint, doublePrecision, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// Web vitals measured with consent (migrations/*.sql are the source of truth; keep both in step).

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const webVitals = pgTable('web_vitals', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  page: text('page').notNull(),
  name: text('name').notNull(),
  value: doublePrecision('value').notNull(),
  rating: text('rating'),
  createdAt: createdAt(),
});
