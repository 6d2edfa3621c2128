#!/usr/bin/env node
// npm start's process supervisor: runs each app, and starts again one that exits without being
// asked to (a crash, a dependency it gave up on), after a backoff of 1 s doubling to 30 s,
// back to 1 s once it has run a minute; as docker compose (restart: unless-stopped) and
// Kubernetes would. SIGINT or SIGTERM stops every app (each drains) and then the supervisor,
// with the first non-zero exit status of an app, else 0 (130/143 for the signal).
//
//   node tools/scripts/supervise.js <name>=<script> ... [-- node arguments for every app]
//
// Written by hand (a page) rather than a dependency: what it must do is this and no more, and
// pm2 or nodemon bring daemons, watch modes and logs of their own.
const { spawn } = require('node:child_process');

const RESET_AFTER_MS = 60_000;

/** Runs the apps until a signal; resolves with the exit status the supervisor should use. */
function supervise(apps, options = {}) {
  const { nodeArgs = [], log = (line) => console.error(line), minDelayMs = 1_000 } = options;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const children = new Map();
  let stopping = false;
  let status = 0;
  let finish;
  const done = new Promise((resolve) => (finish = resolve));

  function run(name, script, delayMs) {
    if (stopping) return;
    const startedAt = Date.now();
    const child = spawn(process.execPath, [...nodeArgs, script], { stdio: 'inherit' });
    children.set(name, child);
    child.on('exit', (code, signal) => {
      children.delete(name);
      if (stopping) {
        if (code) status ||= code;
        if (children.size === 0) finish(status);
        return;
      }
      const ranMs = Date.now() - startedAt;
      const wait = ranMs >= RESET_AFTER_MS ? minDelayMs : delayMs;
      log(
        `supervise: ${name} exited (${signal ?? `code ${code}`}) after ${Math.round(ranMs / 1000)} s; ` +
          `starting it again in ${wait / 1000} s`,
      );
      const timer = setTimeout(() => run(name, script, Math.min(wait * 2, maxDelayMs)), wait);
      timers.add(timer);
    });
  }

  const timers = new Set();
  function stop(signal, exitStatus) {
    if (stopping) return;
    stopping = true;
    status = exitStatus;
    for (const timer of timers) clearTimeout(timer);
    if (children.size === 0) finish(status);
    for (const child of children.values()) child.kill(signal);
  }

  for (const [name, script] of apps) run(name, script, minDelayMs);
  return { done, stop, children };
}

if (require.main === module) {
  const separator = process.argv.indexOf('--');
  const specs = process.argv.slice(2, separator === -1 ? undefined : separator);
  const nodeArgs = separator === -1 ? [] : process.argv.slice(separator + 1);
  const apps = specs.map((spec) => {
    const at = spec.indexOf('=');
    return [spec.slice(0, at), spec.slice(at + 1)];
  });
  // Tests wait milliseconds, not seconds, between a crash and the restart.
  const minDelayMs = Number(process.env.SUPERVISE_MIN_DELAY_MS ?? 1_000);
  const running = supervise(apps, { nodeArgs, minDelayMs });
  process.on('SIGINT', () => running.stop('SIGINT', 130));
  process.on('SIGTERM', () => running.stop('SIGTERM', 143));
  void running.done.then((status) => process.exit(status));
}

module.exports = { supervise };
