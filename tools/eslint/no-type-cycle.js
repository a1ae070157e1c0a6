// @ts-check
// `local/no-type-cycle`: import cycles that go through a type-only import (ADR 008).
//
// `import-x/no-cycle` skips `import type` (and imports whose every name is a type): a cycle that
// needs one of them is invisible to it, although it ties the two modules together just as much
// (context.ts ↔ features/auth/auth.ts was one). This rule reads every import — values, types,
// `export … from`, dynamic `import()` and `typeof import()` — and reports an import that closes a
// cycle only through type-only imports. Cycles of value imports alone stay `import-x/no-cycle`'s, so
// no cycle is reported twice.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** @typedef {{ target: string, typeOnly: boolean, start: number, end: number }} Edge */

const COMPILER_OPTIONS = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  allowJs: true,
  jsx: ts.JsxEmit.ReactJSX,
};
const resolutionCache = ts.createModuleResolutionCache(process.cwd(), (name) => name, COMPILER_OPTIONS);
/** Source files the rule follows; declaration files, JSON and packages are leaves. */
const SOURCE = /\.(?:[cm]?[jt]sx?)$/;

/**
 * The project file `specifier` names from `fromFile`, or null for a package, a declaration file or
 * a path that does not resolve (generated route types, for instance).
 * @param {string} specifier
 * @param {string} fromFile
 * @returns {string | null}
 */
function resolveImport(specifier, fromFile) {
  const { resolvedModule } = ts.resolveModuleName(specifier, fromFile, COMPILER_OPTIONS, ts.sys, resolutionCache);
  if (!resolvedModule) return null;
  const file = path.resolve(resolvedModule.resolvedFileName);
  if (file.includes(`${path.sep}node_modules${path.sep}`) || file.endsWith('.d.ts') || !SOURCE.test(file)) return null;
  return file;
}

/** @param {ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>} elements */
const everyType = (elements) => elements.length > 0 && elements.every((element) => element.isTypeOnly);

/**
 * Every module `file` depends on, with whether the dependency is on types only.
 * @param {string} file
 * @param {string} text
 * @returns {Edge[]}
 */
function parseEdges(file, text) {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  /** @type {Edge[]} */
  const edges = [];
  /** @param {ts.Node} literal @param {boolean} typeOnly */
  const add = (literal, typeOnly) => {
    if (!ts.isStringLiteralLike(literal)) return;
    const target = resolveImport(literal.text, file);
    if (target && target !== file) edges.push({ target, typeOnly, start: literal.getStart(source), end: literal.end });
  };
  /** @param {ts.Node} node */
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            everyType(bindings.elements)));
      add(node.moduleSpecifier, typeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const clause = node.exportClause;
      add(
        node.moduleSpecifier,
        node.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && everyType(clause.elements)),
      );
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) {
      add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** Edges of files on disk, kept while the file is unchanged (one parse per file per lint run). */
/** @type {Map<string, { stamp: string, edges: Edge[] }>} */
const graph = new Map();

/** @param {string} file @returns {Edge[]} */
function edgesOnDisk(file) {
  let stamp;
  try {
    const stats = statSync(file);
    stamp = `${stats.mtimeMs}:${stats.size}`;
  } catch {
    return [];
  }
  const known = graph.get(file);
  if (known?.stamp === stamp) return known.edges;
  const edges = parseEdges(file, readFileSync(file, 'utf8'));
  graph.set(file, { stamp, edges });
  return edges;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noTypeCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles that go through type-only imports (import-x/no-cycle skips them).' },
    schema: [],
    messages: {
      cycle:
        'Dependency cycle through a type-only import: {{route}}. Move what both sides need to a module below them.',
    },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename);
    if (!SOURCE.test(file)) return {};
    return {
      Program() {
        const own = parseEdges(file, context.sourceCode.text);
        /** @param {string} node */
        const edgesOf = (node) => (node === file ? own : edgesOnDisk(node));

        // Every module reachable from this one, then, backwards from this one, those that reach it:
        // through any import, and through value imports only.
        const reachable = new Set([file]);
        const queue = [file];
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          for (const edge of edgesOf(next)) {
            if (!reachable.has(edge.target)) {
              reachable.add(edge.target);
              queue.push(edge.target);
            }
          }
        }
        /** @type {Map<string, { from: string, typeOnly: boolean }[]>} */
        const importers = new Map();
        for (const node of reachable) {
          for (const edge of edgesOf(node)) {
            const list = importers.get(edge.target) ?? [];
            list.push({ from: node, typeOnly: edge.typeOnly });
            importers.set(edge.target, list);
          }
        }
        /** @param {boolean} valuesOnly */
        const reachingThisFile = (valuesOnly) => {
          const found = new Set();
          const pending = [file];
          for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
            for (const importer of importers.get(next) ?? []) {
              if ((valuesOnly && importer.typeOnly) || found.has(importer.from)) continue;
              found.add(importer.from);
              pending.push(importer.from);
            }
          }
          return found;
        };
        const throughAny = reachingThisFile(false);
        if (throughAny.size === 0) return;
        const throughValues = reachingThisFile(true);

        for (const edge of own) {
          if (!throughAny.has(edge.target)) continue;
          // A value import on a cycle of value imports is import-x/no-cycle's to report.
          if (!edge.typeOnly && throughValues.has(edge.target)) continue;
          context.report({
            loc: {
              start: context.sourceCode.getLocFromIndex(edge.start),
              end: context.sourceCode.getLocFromIndex(edge.end),
            },
            messageId: 'cycle',
            data: { route: routeBack(edge.target, file, edgesOf) },
          });
        }
      },
    };
  },
};

/**
 * The shortest way from `start` back to `file`, as project-relative paths joined by arrows.
 * @param {string} start
 * @param {string} file
 * @param {(node: string) => Edge[]} edgesOf
 */
function routeBack(start, file, edgesOf) {
  /** @type {Map<string, string | null>} */
  const previous = new Map([[start, null]]);
  const queue = [start];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (next === file) break;
    for (const edge of edgesOf(next)) {
      if (previous.has(edge.target)) continue;
      previous.set(edge.target, next);
      queue.push(edge.target);
    }
  }
  const route = [];
  for (let node = /** @type {string | null | undefined} */ (file); node; node = previous.get(node)) route.unshift(node);
  return [file, ...route].map((node) => path.relative(process.cwd(), node)).join(' → ');
}

export default { rules: { 'no-type-cycle': noTypeCycle } };
