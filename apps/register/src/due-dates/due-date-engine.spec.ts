import type { DataSource } from 'typeorm';
import { DueDateEngine, MAX_ATTEMPTS, retryDelayMs } from './due-date-engine';

// What needs no database; the engine's claims and fires are in the integration spec.

it('waits 1, 4, 16 then 64 minutes between the attempts of a failing notice', () => {
  expect(MAX_ATTEMPTS).toBe(5);
  const waits = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1) / 60_000);
  expect(waits).toEqual([1, 4, 16, 64]);
});

it('takes one handler per kind: a second is a bug, refused at start', () => {
  const engine = new DueDateEngine({} as DataSource, { DUE_DATES_SWEEP_MS: 1_000 });
  engine.handle('assignment.overdue', () => Promise.resolve('fired'));
  expect(() => engine.handle('assignment.overdue', () => Promise.resolve('fired'))).toThrow(
    /handler for assignment.overdue exists already/,
  );
});

it('runs nothing, and asks the database nothing, without handlers', async () => {
  // A DataSource that fails any use: an engine with no kinds never opens a transaction.
  const untouchable = new Proxy({} as DataSource, {
    get: () => {
      throw new Error('the database was used');
    },
  });
  const engine = new DueDateEngine(untouchable, { DUE_DATES_SWEEP_MS: 1_000 });
  await expect(engine.runDue(new Date())).resolves.toEqual({
    fired: 0,
    obsolete: 0,
    busy: 0,
    failed: 0,
  });
});
