import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** Placeholder: banner images and print PDFs per referral code come with the marketing feature. */
export function registerMarketingAssets(_app: FastifyInstance, _ctx: AppContext): void {}
