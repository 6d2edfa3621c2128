// No cycle between the folders of an app (issue 30): in `apps/<app>/src`, and in every folder
// below it, sibling folders import one another one way only, so each domain folder can be
// read, moved or given an owner without dragging the folder it depends on along. A file that
// lies directly in a folder (app.module.ts, main.ts, a console.module.ts that composes its
// subfolders) is a composition root, not a node: its imports, and imports of it, make no edge.
// Test files are left out: a test may exercise features together.
//
// An import from `a/x.ts` into `b/y.ts` (siblings under the same folder) is reported when `b`
// imports `a` back, directly or through other siblings. The graph is import-graph.js's; a
// folder's files are listed again once a second at most (for editors).
const fs = require('node:fs');
const path = require('node:path');
const { importsOf, resolveRelative } = require('./import-graph.js');

const SOURCE = /\.(ts|tsx)$/;
const TEST = /[.-](spec|test)\.[jt]sx?$/;
const RECHECK_MS = 1000;

/** dir -> { checkedAt, files } (every source file below dir, tests left out) */
const listings = new Map();

function filesBelow(dir) {
  const now = Date.now();
  const known = listings.get(dir);
  if (known && now - known.checkedAt < RECHECK_MS) return known.files;
  const files = [];
  const walk = (current) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(full);
      } else if (
        SOURCE.test(entry.name) &&
        !TEST.test(entry.name) &&
        !entry.name.endsWith('.d.ts')
      ) {
        files.push(full);
      }
    }
  };
  walk(dir);
  listings.set(dir, { checkedAt: now, files });
  return files;
}

/** The folder right below `dir` that holds `file`, or null when `file` lies in `dir` itself. */
function childFolder(dir, file) {
  const parts = path.relative(dir, file).split(path.sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : null;
}

/**
 * The sibling folders below `dir` and their imports of one another: folder -> folder -> the
 * first file seen making that edge.
 */
function folderGraph(dir) {
  const edges = new Map();
  for (const file of filesBelow(dir)) {
    const from = childFolder(dir, file);
    if (!from) continue;
    for (const { resolved } of importsOf(file)) {
      const to = childFolder(dir, resolved);
      if (!to || to === from || TEST.test(resolved)) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to)) edges.get(from).set(to, file);
    }
  }
  return edges;
}

/** A path of folder edges from `start` to `target` ([[folder, via file], ...]), or null. */
function folderPath(edges, start, target) {
  const seen = new Set([start]);
  const queue = [[start, []]];
  while (queue.length > 0) {
    const [folder, trail] = queue.shift();
    for (const [next, via] of edges.get(folder) ?? []) {
      const step = [...trail, [folder, next, via]];
      if (next === target) return step;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push([next, step]);
      }
    }
  }
  return null;
}

/** The directory both paths lie in, nearest to them. */
function commonDir(a, b) {
  const left = path.dirname(a).split(path.sep);
  const right = path.dirname(b).split(path.sep);
  let i = 0;
  while (i < left.length && i < right.length && left[i] === right[i]) i++;
  return left.slice(0, i).join(path.sep) || path.sep;
}

module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'no import cycle between the folders of an app' },
    messages: {
      cycle:
        'Folder cycle in {{dir}}: {{cycle}}. One of these folders must not depend on the other: move what both need below both, or invert the dependency.',
    },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' } },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const file = context.filename;
    const cwd = context.cwd;
    // The app's source root: `apps/<app>/src` unless configured.
    const rootPattern = new RegExp(context.options[0]?.root ?? '^apps/[^/]+/src(?=/)');
    const relativeFile = path.relative(cwd, file).split(path.sep).join('/');
    const match = rootPattern.exec(relativeFile);
    if (!match || TEST.test(file)) return {};
    const root = path.join(cwd, match[0]);
    const relative = (p) => path.relative(cwd, p).split(path.sep).join('/');
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !/^\.\.?\//.test(specifier)) return;
      const target = resolveRelative(file, specifier);
      if (!target || TEST.test(target) || path.relative(root, target).startsWith('..')) return;
      const dir = commonDir(file, target);
      const from = childFolder(dir, file);
      const to = childFolder(dir, target);
      if (!from || !to || from === to) return;
      const back = folderPath(folderGraph(dir), to, from);
      if (!back) return;
      const cycle = [
        `${from} -> ${to}`,
        ...back.map(([a, b, via]) => `${a} -> ${b} (${relative(via)})`),
      ];
      context.report({
        node: node.source,
        messageId: 'cycle',
        data: { dir: relative(dir), cycle: cycle.join(', ') },
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};
