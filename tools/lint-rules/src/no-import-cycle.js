// No import cycle between the files of a project, type-only imports included: two files that
// import each other, directly or through others, cannot be read, tested or moved apart
// (issue 30). Nx's enforce-module-boundaries already refuses cycles between projects, through
// their @custodian/* aliases; this rule follows relative imports. import-x/no-cycle was the
// first choice, but it skips `import type`, and every cycle the issue counted had one.
// The graph is import-graph.js's.
const path = require('node:path');
const { importsOf, resolveRelative } = require('./import-graph.js');

/** A path of imports from `start` back to `target`, or null (depth-first, each file once). */
function pathBack(start, target) {
  const seen = new Set();
  const walk = (file, trail) => {
    if (file === target) return trail;
    if (seen.has(file)) return null;
    seen.add(file);
    for (const { resolved } of importsOf(file)) {
      const found = walk(resolved, [...trail, resolved]);
      if (found) return found;
    }
    return null;
  };
  return walk(start, [start]);
}

module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'no import cycle between files, type-only imports included' },
    messages: {
      cycle: 'Import cycle: {{cycle}}. Move what both need into a file that neither imports back.',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const root = context.cwd;
    const relative = (p) => path.relative(root, p);
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !/^\.\.?\//.test(specifier)) return;
      const target = resolveRelative(file, specifier);
      if (!target) return;
      const back = pathBack(target, file);
      if (back) {
        context.report({
          node: node.source,
          messageId: 'cycle',
          data: { cycle: [file, ...back].map(relative).join(' -> ') },
        });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
