import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README promises Node.js 20.19 or newer (docs/decisions/023-node-20-dependencies.md): every
// package the lockfile installs must accept that version, or `npm ci` warns and the package may not
// run. A new dependency, or an update that drops Node 20, fails here before a newcomer sees it.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

interface LockPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockPackage>;
};

/** "Node.js 20.19 or newer." in the README's quick start, as a full version. */
function readmeNode(): string {
  const match = /^Node\.js (\d+)\.(\d+) or newer\.$/m.exec(readme);
  if (!match) throw new Error('The README no longer says which Node.js it needs ("Node.js X.Y or newer.")');
  return `${match[1]}.${match[2]}.0`;
}

describe('the Node.js version the README names', () => {
  it('is the lowest version package.json accepts', () => {
    expect(semver.minVersion(manifest.engines.node)?.version).toBe(readmeNode());
  });

  it('is accepted by every package the lockfile installs', () => {
    const node = readmeNode();
    const refused = Object.entries(lock.packages)
      .filter(([name]) => name.startsWith('node_modules/') || name.includes('/node_modules/'))
      .flatMap(([name, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return range && !semver.satisfies(node, range) ? [`${name}@${entry.version}: node ${range}`] : [];
      });
    expect(refused).toEqual([]);
  });
});
