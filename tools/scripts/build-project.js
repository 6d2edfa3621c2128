// The `build` target of every project (nx.json targetDefaults): compiles the project's own
// production files with the TypeScript compiler into dist/<projectRoot>/, keeping the repo's
// layout and leaving other projects' files to their own builds (each lib is built once, by its
// own cached task, and apps import it through tools/runtime/register-paths.js). Not bundled:
// every module stays a file and every dependency stays in node_modules (docs/adr/0002).
//
// With --package-json (apps), also writes dist/<projectRoot>/package.json and package-lock.json
// listing only the npm packages the app and the libs it imports use at run time, from Nx's
// project graph, so that an image installs only those (`npm ci --omit=dev`).
//
// Usage: node tools/scripts/build-project.js <projectRoot> [--package-json]
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

const workspaceRoot = path.join(__dirname, '..', '..');
/** Packages every app needs at run time although no project imports them. */
const RUNTIME_HELPERS = [
  // tools/runtime/register-paths.js maps the @custodian/* aliases onto dist/.
  'tsconfig-paths',
];
const TEST_FILES = ['**/*.spec.ts', '**/*.integration-spec.ts', '**/*.e2e-spec.ts'];

function compilerOptions() {
  const configPath = path.join(workspaceRoot, 'tsconfig.build.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => fail([diagnostic]),
    },
  );
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  // One program per project, cached by Nx: no .tsbuildinfo of its own.
  return { ...parsed.options, incremental: false, tsBuildInfoFile: undefined };
}

function fail(diagnostics) {
  const host = {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => workspaceRoot,
    getNewLine: () => '\n',
  };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.exit(1);
}

/** Emits the project's own files; the files it imports from other projects are only read. */
function compile(projectRoot) {
  const sourceDir = path.join(workspaceRoot, projectRoot, 'src');
  const rootNames = ts.sys.readDirectory(sourceDir, ['.ts'], TEST_FILES, ['**/*']);
  if (rootNames.length === 0) throw new Error(`no TypeScript files under ${sourceDir}`);
  const options = compilerOptions();
  const outDir = path.join(options.outDir, projectRoot);
  fs.rmSync(outDir, { recursive: true, force: true });

  const program = ts.createProgram({ rootNames, options });
  const ownPrefix = path.join(workspaceRoot, projectRoot) + path.sep;
  const own = program
    .getSourceFiles()
    .filter((file) => !file.isDeclarationFile && path.resolve(file.fileName).startsWith(ownPrefix));
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const file of own) {
    diagnostics.push(...program.getSyntacticDiagnostics(file));
    diagnostics.push(...program.getSemanticDiagnostics(file));
  }
  if (diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error)) fail(diagnostics);
  for (const file of own) {
    const result = program.emit(file);
    if (result.emitSkipped) fail(result.diagnostics);
  }
  return { outDir, files: own.length };
}

async function projectGraph() {
  const devkit = require('@nx/devkit');
  // Under `nx run`, the graph Nx computed for this run is on disk; run by hand, compute it.
  try {
    return devkit.readCachedProjectGraph();
  } catch {
    return devkit.createProjectGraphAsync({ exitOnError: true });
  }
}

/** package.json and package-lock.json of the app's runtime dependencies, beside its code. */
async function writePackageFiles(projectRoot, outDir) {
  const { createPackageJson, createLockFile, getLockFileName } = require('@nx/js');
  const { detectPackageManager } = require('@nx/devkit');
  const graph = await projectGraph();
  const node = Object.values(graph.nodes).find((candidate) => candidate.data.root === projectRoot);
  if (!node) throw new Error(`no Nx project at ${projectRoot}`);
  const rootPackage = JSON.parse(fs.readFileSync(path.join(workspaceRoot, 'package.json'), 'utf8'));
  // Which packages each file imports comes from the file map Nx cached with the graph.
  const packageJson = createPackageJson(node.name, graph, {
    target: 'build',
    isProduction: true,
    root: workspaceRoot,
    helperDependencies: RUNTIME_HELPERS.map((name) => `npm:${name}`),
  });
  const manifest = {
    name: `@custodian/${node.name}`,
    version: rootPackage.version,
    private: true,
    license: rootPackage.license,
    engines: rootPackage.engines,
    dependencies: packageJson.dependencies ?? {},
  };
  const packageManager = detectPackageManager(workspaceRoot);
  const lockFile = createLockFile(manifest, graph, packageManager);
  fs.writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(path.join(outDir, getLockFileName(packageManager)), lockFile);
  return Object.keys(manifest.dependencies).length;
}

async function main() {
  const [projectRoot, ...flags] = process.argv.slice(2);
  if (!projectRoot || flags.some((flag) => flag !== '--package-json')) {
    throw new Error('usage: build-project.js <projectRoot> [--package-json]');
  }
  const started = Date.now();
  const { outDir, files } = compile(projectRoot);
  let summary = `${projectRoot}: ${files} files compiled into ${path.relative(workspaceRoot, outDir)}`;
  if (flags.includes('--package-json')) {
    const count = await writePackageFiles(projectRoot, outDir);
    summary += `, package.json and lock file with ${count} runtime dependencies`;
  }
  console.log(`${summary} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
