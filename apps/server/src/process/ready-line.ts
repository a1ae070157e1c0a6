import type { Config } from '../config.ts';

// When the server starts answering, one line in plain words says where to open it (README, "Quick
// start"). It goes to stderr: stdout carries the log, one JSON object per line, for the machines that
// collect it (docs/operations-observability.md, "Logs"); stderr is where a person's messages go, as
// the configuration's refusals do. The log writes asynchronously, so in a terminal the line may come
// before the log's own "listening" lines; blank lines set it apart.

type ReadyConfig = Pick<Config, 'BRAND_NAME' | 'publicUrl'>;

/** The line itself: the public address, which a reader can open as it is. */
export function readyLine(config: ReadyConfig): string {
  return `${config.BRAND_NAME} is ready: open ${config.publicUrl} in your browser.`;
}

export function announceReady(config: ReadyConfig): void {
  process.stderr.write(`\n${readyLine(config)}\n\n`);
}
