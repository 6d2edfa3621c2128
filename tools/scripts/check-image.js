// What an app's image carries, proved without a Docker engine (none runs on these machines):
// runs the root Dockerfile's stages for one APP in a scratch directory, as `docker build` would,
// then checks that the runtime stage holds the files the app needs at run time. Each stage is
// a directory standing for the container's file system; FROM an earlier stage starts from a
// hard-linked copy of it, FROM a base image from an empty one (its Node is this process's, which
// node-runtime.sh pins to the image's major). COPY takes the build context (the work tree less
// .dockerignore) or another stage; RUN runs in the stage's WORKDIR with its ARG and ENV.
// Only the instructions the Dockerfile uses are understood; any other one fails the check.
//
//   node tools/scripts/check-image.js gateway   (CI; also register, webhook-worker)
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');

/** What each app's runtime stage must hold, relative to its WORKDIR. */
const REQUIRED = {
  gateway: [
    'dist/apps/gateway/src/main.js',
    'dist/apps/gateway/src/migrate.js',
    // The console the gateway serves at /console (CONSOLE_DIR's default, dist/apps/console).
    'dist/apps/console/index.html',
    'tools/runtime/register-paths.js',
    'node_modules/@nestjs/core/package.json',
  ],
  register: ['dist/apps/register/src/main.js', 'dist/apps/register/src/migrate.js'],
  'webhook-worker': [
    'dist/apps/webhook-worker/src/main.js',
    'dist/apps/webhook-worker/src/migrate.js',
  ],
};

/** The Dockerfile's instructions: continuation lines joined, comments dropped. */
function instructions(text) {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [, keyword, rest] = /^(\S+)\s*(.*)$/.exec(line);
      return { keyword: keyword.toUpperCase(), rest };
    });
}

function substitute(value, vars) {
  return value.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => vars[a ?? b] ?? '');
}

/** .dockerignore as a predicate on a context-relative path (Go filepath.Match, plus `**`). */
function dockerignore() {
  const file = path.join(ROOT, '.dockerignore');
  const patterns = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const rules = patterns.map((pattern) => {
    const negate = pattern.startsWith('!');
    const body = pattern.replace(/^!/, '').replace(/^\//, '');
    const regex = body
      .split('/')
      .map((part) =>
        part === '**'
          ? '.*'
          : part
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
      )
      .join('/')
      .replace(/^\.\*\//, '(?:.*/)?');
    return { negate, regex: new RegExp(`^${regex}(?:/.*)?$`) };
  });
  return (relative) => {
    let ignored = false;
    for (const rule of rules) if (rule.regex.test(relative)) ignored = !rule.negate;
    return ignored;
  };
}

/**
 * The build context: the work tree's files that .dockerignore lets through, less what git
 * ignores (node_modules, dist, tmp: .dockerignore names them too, and the rest are local
 * leftovers a clean checkout would not have).
 */
function buildContext(into) {
  const ignored = dockerignore();
  const listed = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  const files = [...new Set(listed.split('\0'))].filter(
    (file) => file && !ignored(file) && fs.existsSync(path.join(ROOT, file)),
  );
  for (const file of files) {
    const target = path.join(into, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), target);
  }
  return files.length;
}

/** COPY's rules: a directory source copies its contents; several sources need a directory. */
function copy(sources, destination) {
  const intoDirectory = destination.endsWith('/') || sources.length > 1;
  for (const source of sources) {
    if (!fs.existsSync(source)) throw new Error(`COPY: ${source} does not exist`);
    const isDirectory = fs.statSync(source).isDirectory();
    const target =
      intoDirectory && !isDirectory ? path.join(destination, path.basename(source)) : destination;
    fs.mkdirSync(isDirectory ? target : path.dirname(target), { recursive: true });
    fs.cpSync(source, target, { recursive: true, verbatimSymlinks: true });
  }
}

function build(app, scratch) {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const context = path.join(scratch, 'context');
  console.log(`check-image: build context of ${buildContext(context)} files`);

  const globalArgs = {};
  const stages = new Map();
  let stage = null;
  for (const { keyword, rest } of instructions(dockerfile)) {
    if (keyword === 'ARG' && !stage) {
      const [name, value = ''] = rest.split('=');
      globalArgs[name] = value;
      continue;
    }
    if (keyword === 'FROM') {
      const [from, , name] = substitute(rest, globalArgs).split(/\s+/);
      const root = path.join(scratch, 'stages', name);
      fs.mkdirSync(path.dirname(root), { recursive: true });
      const base = stages.get(from);
      if (base) {
        execFileSync('cp', ['-al', base.root, root]);
      } else {
        fs.mkdirSync(root);
      }
      stage = {
        name,
        root,
        workdir: base?.workdir ?? '/',
        vars: base ? { ...base.vars } : {},
        env: base ? { ...base.env } : {},
      };
      stages.set(name, stage);
      console.log(`check-image: stage ${name} (from ${from})`);
      continue;
    }
    if (!stage) throw new Error(`${keyword} before any FROM`);
    const vars = { ...stage.vars, ...stage.env };
    const inside = (p) => path.join(stage.root, path.posix.resolve(stage.workdir, p));
    switch (keyword) {
      case 'ARG': {
        const [name] = rest.split('=');
        // The build's only argument is APP; a global ARG re-declared takes its default.
        stage.vars[name] = name === 'APP' ? app : (globalArgs[name] ?? rest.split('=')[1] ?? '');
        break;
      }
      case 'ENV': {
        for (const [, name, value] of substitute(rest, vars).matchAll(/(\w+)=(\S+)/g)) {
          stage.env[name] = value;
        }
        break;
      }
      case 'WORKDIR':
        stage.workdir = path.posix.resolve(stage.workdir, substitute(rest, vars));
        fs.mkdirSync(inside('.'), { recursive: true });
        break;
      case 'COPY': {
        const words = substitute(rest, vars).split(/\s+/);
        const fromFlag = words.find((word) => word.startsWith('--from='));
        const paths = words.filter((word) => !word.startsWith('--'));
        const destination = paths.pop();
        const sourceStage = fromFlag && stages.get(fromFlag.slice('--from='.length));
        if (fromFlag && !sourceStage) throw new Error(`COPY ${fromFlag}: no such stage`);
        const sources = paths.map((p) =>
          sourceStage ? path.join(sourceStage.root, p) : path.join(context, p),
        );
        const target = inside(destination) + (destination.endsWith('/') ? '/' : '');
        copy(sources, target);
        break;
      }
      case 'RUN':
        console.log(`check-image: RUN ${rest.slice(0, 100)}`);
        execFileSync('sh', ['-c', rest], {
          cwd: inside('.'),
          // No Nx cache: an image build starts with none.
          env: { ...process.env, NX_SKIP_NX_CACHE: 'true', ...vars },
          stdio: ['ignore', 'inherit', 'inherit'],
        });
        break;
      case 'USER':
      case 'STOPSIGNAL':
      case 'HEALTHCHECK':
      case 'CMD':
      case 'EXPOSE':
        break;
      default:
        throw new Error(`check-image: the Dockerfile uses ${keyword}, which this check cannot run`);
    }
  }
  return stage;
}

function main() {
  const app = process.argv[2];
  if (!REQUIRED[app]) {
    console.error(`usage: node tools/scripts/check-image.js <${Object.keys(REQUIRED).join('|')}>`);
    process.exit(2);
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), `custodian-image-${app}-`));
  try {
    const runtime = build(app, scratch);
    const workdir = path.join(runtime.root, runtime.workdir);
    const missing = REQUIRED[app].filter((file) => !fs.existsSync(path.join(workdir, file)));
    if (missing.length > 0) {
      console.error(`check-image: the ${app} image's last stage (${runtime.name}) lacks:`);
      for (const file of missing) console.error(`  ${runtime.workdir}/${file}`);
      process.exit(1);
    }
    console.log(
      `check-image: the ${app} image's ${runtime.name} stage holds ${REQUIRED[app].join(', ')}`,
    );
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main();
