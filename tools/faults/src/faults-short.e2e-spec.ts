import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LedgerLine } from './ledger';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const TOOL = path.join(REPO_ROOT, 'dist/tools/faults/src/main.js');

/**
 * `npm run faults -- --short` as CI runs it (the e2e target builds the tool and the apps
 * first): the built tool, its own process, against the machine's Postgres, Redis and RabbitMQ
 * on a database, queues and Redis prefix of its own.
 */
describe('the short fault ledger', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'custodian-faults-e2e-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loses no event, fires every overdue once and applies no write twice when the worker or register is killed or the receiver fails', async () => {
    if (!existsSync(TOOL)) throw new Error(`${TOOL} does not exist: run nx run faults:build`);
    const json = path.join(dir, 'ledger.json');
    const { code, output } = await runTool(['--short', '--json', json]);
    if (code !== 0) throw new Error(`the tool exited ${code}:\n${output.slice(-6_000)}`);

    const lines = JSON.parse(readFileSync(json, 'utf8')) as LedgerLine[];
    expect(lines.map((line) => line.fault)).toEqual([
      'webhook-worker SIGKILL, restarted',
      'register SIGKILL, restarted',
      'receiver answering 503 for 2 s',
    ]);
    for (const line of lines) {
      expect({ fault: line.fault, missing: line.missing, appliedTwice: line.appliedTwice }).toEqual(
        { fault: line.fault, missing: 0, appliedTwice: 0 },
      );
      expect(line.ackedAbsent).toBe(0);
      expect(line.exited).toEqual([]);
      // Every check-out past its due date fired one assignment.overdue, and every delivery
      // received twice was in flight when its worker was killed.
      expect({
        fault: line.fault,
        overdueMissing: line.overdueMissing,
        twice: line.overdueTwice,
      }).toEqual({ fault: line.fault, overdueMissing: 0, twice: 0 });
      expect(line.overdueDue).toBeGreaterThan(0);
      expect(line.duplicatesUnexplained).toBe(0);
      // The load ran through the fault and the apps came back.
      expect(line.acked).toBeGreaterThan(100);
      expect(line.recoverySeconds).not.toBeNull();
      expect(line.delivered + line.givenUp).toBe(line.expected);
    }
    // The table a person reads is printed too.
    expect(output).toContain('| fault | writes acked |');
  }, 180_000);
});

function runTool(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['-r', path.join(REPO_ROOT, 'tools/runtime/register-paths.js'), TOOL, ...args],
      { cwd: REPO_ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}
