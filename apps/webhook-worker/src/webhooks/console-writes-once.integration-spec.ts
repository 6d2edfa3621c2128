import { AppliedWrites, planCopyWith, runInRpcRequest } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { PLAN_CATALOG } from '@custodian/plans';
import { createMigratedDatabase, type MigratedDatabase } from '@custodian/testing';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig } from '../config/worker-config';
import { workerDataSource } from '../database/data-source';
import { migrateWorker } from '../migrate';
import { EndpointEvents } from './endpoint-events';
import { EndpointsService } from './endpoints.service';
import { SigningSecretService } from './signing-secret.service';

/**
 * The worker's console writes, handed over twice with one request id (a broker redelivery
 * after the worker's channel died before its ack, or a console retry with its
 * Idempotency-Key): applied once, the repeat answered as the first was. Before, a redelivered
 * create made a second endpoint and a redelivered rotation retired the secret the first
 * answer had given out.
 */
describe('webhook endpoint console writes applied once (integration)', () => {
  const workspace = 'wsp_once';
  const actor = { id: 'mbr_once', email: 'ada@once.example' };
  let store: MigratedDatabase;
  let db: DataSource;
  let endpoints: EndpointsService;
  let secrets: SigningSecretService;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 4));
    db = store.db;
    const config = loadWorkerConfig({
      DATABASE_URL: store.database.url,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    const activity = new ActivityLog('delivery');
    const writes = new AppliedWrites(db, 'delivery');
    endpoints = new EndpointsService(
      db,
      await planCopyWith(
        db,
        { schema: 'delivery', reader: 'webhook-worker' },
        { workspace_id: workspace, plan: 'pro', api_access: true, limits: PLAN_CATALOG.pro.limits },
      ),
      config,
      activity,
      new EndpointEvents(),
      writes,
    );
    secrets = new SigningSecretService(db, config, activity, writes);
  }, 30_000);

  afterAll(() => store?.close());

  /** Runs `work` twice as the same RPC request, as a redelivery would. */
  async function twice<T>(work: () => Promise<T>): Promise<[T, T]> {
    const request = { id: randomUUID(), deadline: Date.now() + 10_000 };
    const first = await runInRpcRequest(request, work);
    const again = await runInRpcRequest(request, work);
    return [first, again];
  }

  async function count(sql: string, params: unknown[]): Promise<number> {
    const [row] = await db.query<Array<{ n: number }>>(sql, params);
    return row?.n ?? -1;
  }

  const activityCount = (id: string, action: string) =>
    count(`SELECT count(*)::int AS n FROM delivery.activity WHERE record_id = $1 AND action = $2`, [
      id,
      action,
    ]);

  it('creates one endpoint, and answers the repeat with its id and secret', async () => {
    const url = `http://127.0.0.1:9/once-${randomUUID()}`;
    const [first, again] = await twice(() =>
      endpoints.create({ workspace, url, events: ['*'], actor }),
    );
    expect(again.id).toBe(first.id);
    expect(again.secret).toBe(first.secret);
    expect(
      await count(`SELECT count(*)::int AS n FROM delivery.endpoints WHERE url = $1`, [url]),
    ).toBe(1);
    expect(await activityCount(first.id, 'created')).toBe(1);
    // The stored reply names the endpoint, never its secret.
    const replies = await db.query<Array<{ reply: unknown }>>(
      `SELECT reply FROM delivery.applied_requests`,
    );
    expect(JSON.stringify(replies)).not.toContain(first.secret);
  });

  it('rotates once: the repeat answers the secret the first rotation made, still current', async () => {
    const created = await endpoints.create({
      workspace,
      url: `http://127.0.0.1:9/rotate-${randomUUID()}`,
      events: ['*'],
      actor,
    });
    const [first, again] = await twice(() => secrets.rotate(workspace, created.id, 24, actor));
    expect(first.secret).not.toBe(created.secret);
    expect(again.secret).toBe(first.secret);
    // The secret create gave out is the previous one still, not retired by a second rotation.
    expect(again.previous?.secret).toBe(created.secret);
    expect(await activityCount(created.id, 'secret_rotated')).toBe(1);
  });

  it('deletes once, and answers the repeat with the endpoint as it was, not a 404', async () => {
    const created = await endpoints.create({
      workspace,
      url: `http://127.0.0.1:9/delete-${randomUUID()}`,
      events: ['*'],
      actor,
    });
    const [first, again] = await twice(() =>
      endpoints.deleteFromConsole(created.id, workspace, actor),
    );
    expect(first.id).toBe(created.id);
    expect(again).toEqual(JSON.parse(JSON.stringify(first)));
    expect(await activityCount(created.id, 'deleted')).toBe(1);
  });

  it('applies a change once: its repeat does not undo a change made in between', async () => {
    const created = await endpoints.create({
      workspace,
      url: `http://127.0.0.1:9/update-${randomUUID()}`,
      events: ['*'],
      actor,
    });
    const request = { id: randomUUID(), deadline: Date.now() + 10_000 };
    const disable = () => endpoints.update({ workspace, id: created.id, enabled: false, actor });
    expect((await runInRpcRequest(request, disable)).enabled).toBe(false);
    // Another member enables it again; then the first request is handed over once more.
    await endpoints.update({ workspace, id: created.id, enabled: true, actor });
    const repeat = await runInRpcRequest(request, disable);
    expect(repeat.enabled).toBe(true);
    expect(await activityCount(created.id, 'disabled')).toBe(1);
  });
});
