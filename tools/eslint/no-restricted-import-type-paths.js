// @ts-check
// `local/no-restricted-import-type-paths`: the layers' zones (ADR 008) applied to `typeof import('…')`.
//
// `import-x/no-restricted-paths` reads import and export declarations, `import()` and `require()`,
// but not a type written as `typeof import('../other-feature/x')`: a feature could name another
// feature's types that way and no zone saw it (docs/decisions/020-architecture-rules-without-holes.md).
// This rule takes the very same options and hands each such specifier to import-x's own check, so
// that a zone means the same thing whatever the syntax of the import.
import importX from 'eslint-plugin-import-x';

const restrictedPaths = /** @type {import('eslint').Rule.RuleModule} */ (
  /** @type {unknown} */ (importX.rules['no-restricted-paths'])
);

/** @type {import('eslint').Rule.RuleModule} */
export const noRestrictedImportTypePaths = {
  meta: {
    type: 'problem',
    docs: { description: "import-x/no-restricted-paths' zones, applied to `typeof import('…')` types." },
    schema: restrictedPaths.meta?.schema,
    messages: restrictedPaths.meta?.messages,
  },
  create(context) {
    const listeners = restrictedPaths.create(context);
    const check = listeners.ImportDeclaration;
    if (!check) throw new Error('import-x/no-restricted-paths no longer reads import declarations');
    return {
      /** @param {any} node a TSImportType: `typeof import('…')` or `import('…').Name` in a type */
      TSImportType(node) {
        const source = node.source ?? node.argument?.literal;
        if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
        // The check reads only the declaration's `source`; the report points at the specifier.
        check(/** @type {any} */ ({ type: 'ImportDeclaration', source, parent: node.parent }));
      },
    };
  },
};

export default { rules: { 'no-restricted-import-type-paths': noRestrictedImportTypePaths } };
