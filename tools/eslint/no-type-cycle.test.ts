import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import { noTypeCycle } from './no-type-cycle.js';

// The rule reads the fixtures' neighbours from the disk: each case lints one fixture file as it is.

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/type-cycle');

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser, sourceType: 'module' } });

function fixture(name: string) {
  const filename = path.join(FIXTURES, name);
  return { filename, code: readFileSync(filename, 'utf8') };
}

/** The route the message names, from the repository root (the tests run there). */
function route(...names: string[]) {
  return names.map((name) => path.relative(process.cwd(), path.join(FIXTURES, name))).join(' → ');
}

function cycleError(...names: string[]) {
  return { messageId: 'cycle' as const, data: { route: route(...names) } };
}

tester.run('no-type-cycle', noTypeCycle, {
  valid: [
    // The fix of the cycle below: both sides import what they share from a module under them.
    fixture('fixed-context.ts'),
    fixture('fixed-auth.ts'),
    fixture('services.ts'),
    // Value cycles are import-x/no-cycle's: reporting them here would report them twice.
    fixture('value-a.ts'),
    fixture('value-b.ts'),
  ],
  invalid: [
    {
      ...fixture('context.ts'),
      errors: [{ ...cycleError('context.ts', 'auth.ts', 'context.ts'), line: 1 }],
    },
    {
      ...fixture('auth.ts'),
      errors: [{ ...cycleError('auth.ts', 'context.ts', 'auth.ts'), line: 1 }],
    },
    // A value import whose cycle closes only through a type import is reported on both sides.
    { ...fixture('mixed-a.ts'), errors: [cycleError('mixed-a.ts', 'mixed-b.ts', 'mixed-a.ts')] },
    { ...fixture('mixed-b.ts'), errors: [cycleError('mixed-b.ts', 'mixed-a.ts', 'mixed-b.ts')] },
    // `export type … from` and `typeof import()` are dependencies too.
    { ...fixture('reexport-b.ts'), errors: [cycleError('reexport-b.ts', 'reexport-a.ts', 'reexport-b.ts')] },
    { ...fixture('reexport-a.ts'), errors: [cycleError('reexport-a.ts', 'reexport-b.ts', 'reexport-a.ts')] },
    { ...fixture('lazy.ts'), errors: [{ ...cycleError('lazy.ts', 'lazy-target.ts', 'lazy.ts'), line: 2 }] },
  ],
});

// The file being linted is read from the editor, not the disk: an unsaved edit that breaks the cycle is valid at once.
tester.run('no-type-cycle, edited file', noTypeCycle, {
  valid: [
    {
      filename: path.join(FIXTURES, 'context.ts'),
      code: "import type { Auth } from './fixed-auth.ts';\nexport interface Context { auth: Auth }\n",
    },
  ],
  invalid: [],
});
