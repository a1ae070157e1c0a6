import type { FastifyInstance } from 'fastify';
import { CALLABLE_PATH_PREFIX } from '@skanova/shared/callable/functions';
import type { AppContext } from '../context.ts';
import { quietRouteLevel } from '../lib/logging.ts';
import type { ClickRefusal } from '../lib/metrics.ts';
import { sameSecret } from '../lib/secrets.ts';

// `GET /metrics`: the app's Prometheus metrics (lib/metrics.ts), for a scraper holding
// METRICS_TOKEN (`Authorization: Bearer <token>`). Unset, the route answers 404 like any unknown
// path and nothing is measured per request. Not rate limited, not in the request log.

export const METRICS_PATH = '/metrics';

/** The landing page's visit recording: its refusals are counted by reason from its answers. */
const CLICK_ROUTE = `${CALLABLE_PATH_PREFIX}storePreInstallData`;

export function registerMetrics(app: FastifyInstance, ctx: AppContext): void {
  const token = ctx.config.METRICS_TOKEN;

  if (token) {
    app.addHook('onResponse', (request, reply, done) => {
      // The route's pattern, never the URL (no codes, ids or tokens in labels).
      const route = request.routeOptions.url ?? 'unmatched';
      const status = reply.statusCode;
      ctx.metrics.httpRequest(request.method, route, status, reply.elapsedTime / 1000);
      if (route === CLICK_ROUTE && status >= 400) ctx.metrics.clickRefused(clickRefusal(status));
      done();
    });
  }

  app.get(
    METRICS_PATH,
    { logLevel: quietRouteLevel(ctx.config.LOG_LEVEL), config: { rateLimit: false } },
    async (request, reply) => {
      if (!token) return reply.callNotFound();
      const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (given === undefined || !sameSecret(given, token)) {
        request.log.warn('metrics refused: wrong or missing token');
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .type('text/plain; charset=utf-8')
          .send('Unauthorized');
      }
      const text = await ctx.metrics.registry.metrics();
      return reply.header('cache-control', 'no-store').type(ctx.metrics.registry.contentType).send(text);
    },
  );
}

function clickRefusal(status: number): ClickRefusal {
  if (status === 429) return 'rate-limited';
  if (status === 503) return 'shutting-down';
  return status >= 500 ? 'error' : 'invalid';
}
