// Loaded with `node --require` into the three apps by `walk-patch.js` (see its header). It
// counts, per source file, the function calls the app makes between two snapshots, using V8's
// precise coverage through the inspector: nothing in the apps changes. Other processes that
// inherit NODE_OPTIONS (npm, nx, migrations) are left alone.
const app = /apps\/(gateway|register|webhook-worker)\/src\/main\.js$/.exec(process.argv[1] ?? '');
const dir = process.env.ROUTE_TRACE_DIR;

if (app && dir) {
  const fs = require('node:fs');
  const path = require('node:path');
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  const started = post('Profiler.enable').then(() =>
    post('Profiler.startPreciseCoverage', { callCount: true, detailed: false }),
  );
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${process.pid}.app`), app[1]);

  // Snapshots are asked for by a file, not a signal: Nest's shutdown hooks own the signals.
  let taken = 0;
  const poll = setInterval(() => {
    const next = taken + 1;
    if (!fs.existsSync(path.join(dir, `take-${next}`))) return;
    taken = next;
    // Taking the coverage also resets the counters: each snapshot covers the time since the last.
    void started
      .then(() => post('Profiler.takePreciseCoverage'))
      .then(({ result }) => {
        const calls = {};
        for (const script of result) {
          if (!script.url.includes('/dist/') || script.url.includes('/node_modules/')) continue;
          const count = script.functions.reduce((sum, fn) => sum + (fn.ranges[0]?.count ?? 0), 0);
          if (count > 0)
            calls[script.url.replace(/^.*?\/dist\//, '').replace(/\.js$/, '.ts')] = count;
        }
        fs.writeFileSync(path.join(dir, `${process.pid}.${next}.json`), JSON.stringify(calls));
      });
  }, 20);
  poll.unref();
}
