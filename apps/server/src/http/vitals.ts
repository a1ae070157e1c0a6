import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { storableText } from '@skanova/shared/callable/storable-text';
import type { AppContext } from '../context.ts';
import { webVitals } from '../db/schema/web-vitals.ts';
import { sendCallableError } from './callable.ts';

// The web-vitals reporter posts here only with the visitor's consent (docs/product/calls-and-data.md#other-endpoints), as a beacon:
// no cookies are read, nothing identifies the visitor.

const metricSchema = z.object({
  page: z.string().max(200).regex(/^\//).check(storableText()),
  name: z.enum(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']),
  value: z.number().finite().min(0).max(600_000),
  rating: z.enum(['good', 'needs-improvement', 'poor']).optional(),
});
const vitalsSchema = z.union([metricSchema, z.array(metricSchema).min(1).max(10)]);

export function registerVitals(app: FastifyInstance, ctx: AppContext) {
  // sendBeacon posts text/plain unless given a typed Blob: accept both, parse as JSON.
  app.register(async (scope) => {
    scope.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 8 * 1024 }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(Object.assign(new Error('Invalid JSON'), { statusCode: 400 }));
      }
    });
    scope.post(
      '/api/vitals',
      { bodyLimit: 8 * 1024, config: { rateLimit: { max: 60, timeWindow: '1 minute' } } },
      async (request, reply) => {
        const parsed = vitalsSchema.safeParse(request.body);
        if (!parsed.success) return sendCallableError(reply, 'invalid-argument', 'Invalid metrics.');
        const metrics = Array.isArray(parsed.data) ? parsed.data : [parsed.data];
        await ctx.database.db.insert(webVitals).values(
          metrics.map((metric) => ({
            page: metric.page.split('?')[0] ?? '/',
            name: metric.name,
            value: metric.value,
            rating: metric.rating ?? null,
          })),
        );
        return reply.code(204).send();
      },
    );
  });
}
