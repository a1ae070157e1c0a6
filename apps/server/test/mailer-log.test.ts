import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from '../src/lib/mailer.ts';

// The development transport writes each message to a file and says so in the log: the line names the
// file, never the recipient (no personal data in logs).

describe('file transport log', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('names the written file and not the recipient', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mailer-log-'));
    dirs.push(dir);
    const lines: string[] = [];
    const mailer = createMailer({
      from: 'Skanova <no-reply@skanova.test>',
      outboxDir: dir,
      log: (line) => lines.push(line),
    });
    await mailer.send({ to: 'camille.durand@example.com', subject: 'Bienvenue', text: 'Bonjour' });
    mailer.close();

    const [file] = readdirSync(dir);
    expect(file).toMatch(/\.eml$/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(file);
    expect(lines.join('\n')).not.toContain('camille.durand');
  });
});
