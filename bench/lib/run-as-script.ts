import { pathToFileURL } from 'node:url';

/**
 * Runs a benchmark's `run()` when its file is executed directly (`node --import tsx bench/x.bench.ts`),
 * prints its markdown report and exits; does nothing when the file is imported by bench/run.ts.
 */
export function runAsScript(moduleUrl: string, run: () => Promise<string>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  run().then(
    (markdown) => {
      console.log(markdown);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
