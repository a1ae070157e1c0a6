import { isbot } from 'isbot';

// Bots never count as clicks (docs/product/attribution.md#bots). `isbot` knows the crawlers, link-preview fetchers
// (facebookexternalhit, Slackbot, Twitterbot, WhatsApp, TelegramBot, Discordbot, LinkedInBot, …),
// headless browsers and HTTP libraries. A few previewers are named here as well so that a change in
// the library's list cannot silently make them count.

/** Link-preview fetchers the landing page is shared through; matched case-insensitively. */
const LINK_PREVIEW_PATTERN =
  /facebookexternalhit|facebookcatalog|slackbot|twitterbot|whatsapp|telegrambot|discordbot|linkedinbot|googlebot|headlesschrome|skypeuripreview|pinterestbot|redditbot|applebot|bingbot|embedly|iframely|vkshare|viber/i;

/** Answers for recent user agents: a few browser versions make most of the traffic. */
const verdicts = new Map<string, boolean>();
const MAX_REMEMBERED_AGENTS = 1000;

/** True when a user agent belongs to a bot, a link previewer or a headless browser. */
export function isBotUserAgent(userAgent: string): boolean {
  const known = verdicts.get(userAgent);
  if (known !== undefined) return known;
  const verdict = isbot(userAgent) || LINK_PREVIEW_PATTERN.test(userAgent);
  if (verdicts.size >= MAX_REMEMBERED_AGENTS) verdicts.clear();
  verdicts.set(userAgent, verdict);
  return verdict;
}

/**
 * A visit is a bot's when the request's User-Agent header or the page's own report of it says so.
 * Browsers always send a User-Agent header: a request without one comes from a script.
 */
export function isBotVisit(headerUserAgent: string | undefined, fingerprintUserAgent: string): boolean {
  const header = headerUserAgent?.trim() ?? '';
  if (header === '') return true;
  return isBotUserAgent(header) || (fingerprintUserAgent.trim() !== '' && isBotUserAgent(fingerprintUserAgent));
}
