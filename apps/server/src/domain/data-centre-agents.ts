// User agents of data centres rather than people (docs/product/review.md#signals, click bursts):
// HTTP libraries and command-line clients, headless browsers and automation, and the crawlers of
// cloud and SEO companies. No maintained package lists these as a family (bot lists such as the one
// the landing page uses mix them with search engines and link previewers, which are people sharing
// a link), so the list is short, kept here, and tested (data-centre-agents.test.ts). Each entry is a
// word matched case-insensitively; the same source serves JavaScript and PostgreSQL's `~*`.

export const DATA_CENTRE_AGENT_WORDS = [
  // HTTP libraries and command-line clients
  'curl/',
  'wget/',
  'python-requests',
  'python-urllib',
  'python-httpx',
  'aiohttp',
  'go-http-client',
  'okhttp',
  'java/',
  'apache-httpclient',
  'node-fetch',
  'axios/',
  'undici',
  'libwww-perl',
  'ruby',
  'scrapy',
  'httpie',
  'postmanruntime',
  // headless browsers and automation
  'headlesschrome',
  'phantomjs',
  'puppeteer',
  'playwright',
  'selenium',
  // crawlers of cloud and SEO companies
  'ahrefsbot',
  'semrushbot',
  'mj12bot',
  'dotbot',
  'petalbot',
  'bytespider',
  'gptbot',
  'ccbot',
  'claudebot',
  'amazonbot',
  'dataforseobot',
  'blexbot',
] as const;

function escape(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The pattern as text: a JavaScript RegExp source that PostgreSQL's `~*` reads the same way. */
export const DATA_CENTRE_AGENT_PATTERN = DATA_CENTRE_AGENT_WORDS.map(escape).join('|');

const pattern = new RegExp(DATA_CENTRE_AGENT_PATTERN, 'i');

/** True when the user agent is a data centre's (a script, a headless browser, a cloud crawler). */
export function isDataCentreAgent(userAgent: string | null | undefined): boolean {
  return typeof userAgent === 'string' && pattern.test(userAgent);
}
