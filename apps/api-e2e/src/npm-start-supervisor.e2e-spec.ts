import { eventually } from '@custodian/testing';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SUPERVISE = path.join(__dirname, '../../../tools/scripts/supervise.js');

/**
 * Issue 31, item 9: `npm start` starts again an app that exits unexpectedly, with backoff, as
 * compose and Kubernetes would (tools/scripts/supervise.js); before, one app's exit stopped the
 * whole stack. A stand-in app that crashes twice, then runs until it is told to stop.
 */
describe('npm start’s supervisor (e2e, real processes)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'custodian-supervise-'));

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('restarts a crashed app with backoff, and stops it (and itself) on SIGTERM', async () => {
    const counter = path.join(dir, 'starts');
    const app = path.join(dir, 'flaky.js');
    writeFileSync(counter, '0');
    writeFileSync(
      app,
      `const fs = require('node:fs');
       const starts = Number(fs.readFileSync(${JSON.stringify(counter)}, 'utf8')) + 1;
       fs.writeFileSync(${JSON.stringify(counter)}, String(starts));
       fs.writeFileSync(${JSON.stringify(counter)} + '.pid', String(process.pid));
       if (starts < 3) process.exit(1);
       process.on('SIGTERM', () => process.exit(0));
       setInterval(() => undefined, 1000);`,
    );
    const supervisor = spawn(process.execPath, [SUPERVISE, `flaky=${app}`], {
      env: { ...process.env, SUPERVISE_MIN_DELAY_MS: '50' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    supervisor.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      supervisor.on('exit', (code) => resolve(code)),
    );

    await eventually(() => Promise.resolve(expect(readFileSync(counter, 'utf8')).toBe('3')), {
      timeoutMs: 10_000,
    });
    const lines = log.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        /^supervise: flaky exited \(code 1\) after \d+ s; starting it again in 0\.05 s$/,
      ),
      expect.stringMatching(
        /^supervise: flaky exited \(code 1\) after \d+ s; starting it again in 0\.1 s$/,
      ),
    ]);
    const pid = Number(readFileSync(`${counter}.pid`, 'utf8'));
    // Running (a signal 0 to a gone pid throws).
    expect(() => process.kill(pid, 0)).not.toThrow();

    supervisor.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(() => process.kill(pid, 0)).toThrow();
    // Stopped on purpose: not started again.
    expect(readFileSync(counter, 'utf8')).toBe('3');
  }, 20_000);
});
