// No import cycle between the files of a project, type-only imports included: two files that
// import each other, directly or through others, cannot be read, tested or moved apart
// (issue 30). Nx's enforce-module-boundaries already refuses cycles between projects, through
// their @custodian/* aliases; this rule follows relative imports. import-x/no-cycle was the
// first choice, but it skips `import type`, and every cycle the issue counted had one.
//
// The graph: each file's `import`, `export ... from`, `import()` and `require` of a relative
// path, read with TypeScript's preProcessFile (lexical, no type check), resolved as the
// compiler would (.ts, .tsx, .js, then index files). Files are read once per ESLint process and
// read again when their mtime changes (checked at most once a second, for editors).
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs'];
const RECHECK_MS = 1000;

/** file -> { mtimeMs, checkedAt, imports: [{ specifier, resolved }] } */
const graph = new Map();

function resolveRelative(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [
    base,
    ...EXTENSIONS.map((ext) => base + ext),
    ...EXTENSIONS.map((ext) => path.join(base, `index${ext}`)),
  ];
  // A `./x.js` import of `x.ts` (ESM style) resolves to the .ts file, as tsc does.
  if (/\.[mc]?js$/.test(base)) candidates.push(base.replace(/\.[mc]?js$/, '.ts'));
  return candidates.find((candidate) => {
    try {
      return fs.statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

function importsOf(file) {
  const now = Date.now();
  const known = graph.get(file);
  if (known && now - known.checkedAt < RECHECK_MS) return known.imports;
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    graph.delete(file);
    return [];
  }
  if (known && known.mtimeMs === stat.mtimeMs) {
    known.checkedAt = now;
    return known.imports;
  }
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  const imports = importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'))
    .map((specifier) => ({ specifier, resolved: resolveRelative(file, specifier) }))
    .filter(
      (entry) => entry.resolved && !entry.resolved.includes(`${path.sep}node_modules${path.sep}`),
    );
  graph.set(file, { mtimeMs: stat.mtimeMs, checkedAt: now, imports });
  return imports;
}

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
