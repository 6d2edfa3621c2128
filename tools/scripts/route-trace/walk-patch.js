// Which source files run when a client PATCHes an asset, from the HTTP request to the webhook
// delivery it causes. Measured, not read: each app's V8 coverage counts function calls per
// file over the request, and over an equally long idle window for comparison (timers such as
// the outbox relay's and the delivery scheduler's polls run in both).
//
//   terminal 1: ROUTE_TRACE_DIR=/tmp/route-trace \
//               NODE_OPTIONS="--require $PWD/tools/scripts/route-trace/preload.js" npm start
//   terminal 2: node tools/scripts/route-trace/walk-patch.js /tmp/route-trace
//
// It creates a pro workspace, a write key and a webhook endpoint on a local receiver through
// the admin CLI, then PATCHes an asset twice (the first warms up lazy paths) and reports the
// files of the second, per app. A file counts as on the path when it made more calls during
// the request than during the idle window. Run it from the checkout whose stack is running
// (barrels are recognised by reading the sources).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const dir = process.argv[2];
if (!dir) throw new Error('usage: walk-patch.js <ROUTE_TRACE_DIR of the running stack>');
const api = process.env.API ?? 'http://127.0.0.1:3000/api/v1';
const WINDOW_MS = 2_000;

function admin(...args) {
  const out = execFileSync('npm', ['run', '--silent', 'admin', '--', ...args], {
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

async function call(method, route, key, body) {
  const response = await fetch(`${api}${route}`, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/**
 * A file that only re-exports (`export * from ...`): TypeScript compiles it to getters, so its
 * counts rise with every import read through it, but there is nothing in it to read.
 */
function isBarrel(file) {
  try {
    return fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .every(
        (line) => !line.trim() || /^(\/\/|export \* from|export \{[^}]*\} from)/.test(line.trim()),
      );
  } catch {
    return false;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks every app for a snapshot and returns {app: {file: calls}}. */
let snapshots = 0;
async function snapshot() {
  const n = ++snapshots;
  const apps = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.app'))
    .map((name) => ({
      pid: name.slice(0, -4),
      app: fs.readFileSync(path.join(dir, name), 'utf8'),
    }));
  fs.writeFileSync(path.join(dir, `take-${n}`), '');
  const result = {};
  for (const { pid, app } of apps) {
    const file = path.join(dir, `${pid}.${n}.json`);
    for (let waited = 0; !fs.existsSync(file); waited += 20) {
      if (waited > 5_000) throw new Error(`no snapshot from ${app} (pid ${pid}): is it running?`);
      await sleep(20);
    }
    await sleep(20);
    result[app] = JSON.parse(fs.readFileSync(file, 'utf8'));
  }
  return result;
}

async function main() {
  let deliveries = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      deliveries.push(JSON.parse(body));
      response.writeHead(200).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

  const workspace = admin('workspace', 'create', '--name', 'Route trace', '--plan', 'pro');
  const { key } = admin('key', 'create', '--workspace', workspace.id, '--scope', 'write');
  admin(
    'webhook',
    'create',
    '--workspace',
    workspace.id,
    '--url',
    hook,
    '--events',
    'asset.updated',
  );
  const asset = await call('POST', '/assets', key, { name: 'Traced laptop' });

  async function patchAndDeliver(status) {
    deliveries = [];
    await call('PATCH', `/assets/${asset.id}`, key, { status });
    for (let waited = 0; !deliveries.some((d) => d.data?.status === status); waited += 10) {
      if (waited > 15_000) throw new Error('the webhook did not arrive');
      await sleep(10);
    }
  }

  await patchAndDeliver('maintenance'); // warm-up
  await sleep(500);
  await snapshot(); // resets the counters
  await sleep(WINDOW_MS);
  const idle = await snapshot();
  const started = Date.now();
  await patchAndDeliver('active');
  const took = Date.now() - started;
  await sleep(Math.max(0, WINDOW_MS - took));
  const busy = await snapshot();
  receiver.close();

  const onPath = (app) =>
    Object.entries(busy[app])
      .filter(([file, calls]) => calls > (idle[app]?.[file] ?? 0) && !isBarrel(file))
      .map(([file]) => file)
      .sort();
  let total = 0;
  const lines = [
    `PATCH /assets/{id} to webhook delivered in ${took} ms; files whose calls rose ` +
      '(re-export barrels left out):',
  ];
  for (const app of Object.keys(busy).sort()) {
    const files = onPath(app);
    total += files.length;
    lines.push(`\n${app} process (${files.length} files):`, ...files.map((file) => `  ${file}`));
  }
  // A lib file run by two apps is one file to read.
  const distinct = new Set(Object.keys(busy).flatMap(onPath));
  const apps = [...distinct].filter((file) => file.startsWith('apps/')).length;
  lines.push(
    `\n${total} file runs across the three processes; ${distinct.size} distinct files ` +
      `(${apps} in apps, ${distinct.size - apps} in libs)`,
  );
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
