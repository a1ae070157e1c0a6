import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import config from '../../vitest.config.ts';

// The README's command table names Vitest's projects: a project added to vitest.config.ts and not to the
// README (the skin analysis's was missing) leaves a newcomer without the name to run it by.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

it("the README names exactly Vitest's projects", () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith('| `npm run test:unit`'));
  expect(row, 'the README has no `npm run test:unit` row').toBeDefined();
  const named = [...row!.split('|')[2]!.matchAll(/`([\w-]+)`/g)].map((match) => match[1]);
  const projects = (config.test?.projects ?? []).map((project) =>
    typeof project === 'object' && 'test' in project ? project.test?.name : undefined,
  );
  expect(named.sort()).toEqual(projects.sort());
});
