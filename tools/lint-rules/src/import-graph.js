// The import graph of relative imports, shared by no-import-cycle and no-folder-cycle: each
// file's `import`, `export ... from`, `import()` and `require` of a relative path, read with
// TypeScript's preProcessFile (lexical, no type check), resolved as the compiler would (.ts,
// .tsx, .js, then index files). Files are read once per ESLint process and read again when
// their mtime changes (checked at most once a second, for editors).
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

module.exports = { resolveRelative, importsOf };
