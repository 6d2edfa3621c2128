import { DomainError, type EventFeedPage, type PublishedEvent } from '@custodian/contracts';
import { newId } from '@custodian/persistence';
import { createMigratedDatabase, type MigratedDatabase } from '@custodian/testing';
import type { DataSource } from 'typeorm';
import { loadWorkerConfig } from '../config/worker-config';
import { workerDataSource } from '../database/data-source';
import { migrateWorker } from '../migrate';
import { EventFeedService } from './event-feed.service';
import { appendToFeed, pruneFeed } from './feed.store';

let store: MigratedDatabase;
let db: DataSource;
/** A second pool: a transaction held open there while the first one reads and appends. */
let other: DataSource;
let feed: EventFeedService;

beforeAll(async () => {
  store = await createMigratedDatabase(migrateWorker, (url) => workerDataSource(url, 6));
  db = store.db;
  other = await workerDataSource(store.database.url, 2).initialize();
  feed = new EventFeedService(db, loadWorkerConfig({}));
}, 30_000);

afterAll(async () => {
  await other?.destroy();
  await store?.close();
});

function event(workspace: string, key: PublishedEvent['event'] = 'asset.created'): PublishedEvent {
  return {
    id: newId('evt'),
    event: key,
    created_at: new Date().toISOString(),
    data: { id: newId('ast'), name: 'Drill' },
    workspace_id: workspace,
  };
}

/** Every page from `after` on until has_more is false: the ids read and the last cursor. */
async function readAll(
  workspace: string,
  after?: string,
  extra: { limit?: string; types?: string } = {},
): Promise<{ ids: string[]; next: string; pages: number }> {
  const ids: string[] = [];
  let cursor = after;
  for (let pages = 1; ; pages++) {
    const page: EventFeedPage = await feed.page({ workspace, after: cursor, ...extra });
    ids.push(...page.data.map((one) => one.id));
    cursor = page.next;
    if (!page.has_more) return { ids, next: page.next, pages };
  }
}

async function refusal(run: () => Promise<unknown>): Promise<DomainError> {
  const error = await run().then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('the change feed', () => {
  it("gives a workspace's events in order, each as its webhook's envelope, page by page", async () => {
    const ws = newId('wsp');
    const mine = [event(ws), event(ws, 'asset.updated'), event(ws, 'employee.created')];
    await appendToFeed(db, [mine[0]!, event(newId('wsp')), mine[1]!]);
    await appendToFeed(db, [mine[2]!]);

    const first = await feed.page({ workspace: ws, limit: '2' });
    expect(first.data).toEqual(
      mine.slice(0, 2).map(({ id, event: key, created_at, data }) => ({
        id,
        event: key,
        created_at,
        data,
      })),
    );
    expect(first.has_more).toBe(true);
    const rest = await feed.page({ workspace: ws, after: first.next, limit: '2' });
    expect(rest.data.map((one) => one.id)).toEqual([mine[2]!.id]);
    expect(rest.has_more).toBe(false);

    // Nothing new: the same cursor, or one further on (the head moved), never an event again.
    const again = await feed.page({ workspace: ws, after: rest.next });
    expect(again).toEqual({ data: [], next: rest.next, has_more: false });
    const later = event(ws, 'asset.deleted');
    await appendToFeed(db, [event(newId('wsp')), later]);
    const after = await feed.page({ workspace: ws, after: rest.next });
    expect(after.data.map((one) => one.id)).toEqual([later.id]);
  });

  it('filters by types, a page looking through at most FEED_SCAN_MAX rows', async () => {
    const ws = newId('wsp');
    const events = Array.from({ length: 30 }, (_, i) =>
      event(ws, i % 10 === 9 ? 'asset.deleted' : 'asset.updated'),
    );
    await appendToFeed(db, events);
    const deleted = events.filter((one) => one.event === 'asset.deleted').map((one) => one.id);
    expect((await readAll(ws, undefined, { types: 'asset.deleted', limit: '2' })).ids).toEqual(
      deleted,
    );
    expect((await readAll(ws, undefined, { types: '*' })).ids).toHaveLength(30);
    expect(
      (await readAll(ws, undefined, { types: 'asset.deleted, asset.updated', limit: '7' })).ids,
    ).toEqual(events.map((one) => one.id));
  });

  it('names what is wrong with the query', async () => {
    const ws = newId('wsp');
    const cases: Array<[object, RegExp]> = [
      [{ limit: '0' }, /^limit must be a whole number from 1 to 1000$/],
      [{ limit: '1001' }, /^limit must be/],
      [{ limit: 'ten' }, /^limit must be/],
      [
        { types: 'asset.created,asset.exploded' },
        /^types names an unknown event key: asset\.exploded/,
      ],
      [{ types: '*,asset.created' }, /^types must be \* alone/],
      [{ types: ' , ' }, /^types must name an event key/],
      [{ after: 'not-a-cursor' }, /^after must be the `next` of a previous page/],
      [
        { after: Buffer.from('feed:99999999999').toString('base64url') },
        /^after is past the end of the feed/,
      ],
    ];
    for (const [query, message] of cases) {
      const error = await refusal(() => feed.page({ workspace: ws, ...query }));
      expect(error.code).toBe('invalid_input');
      expect(error.message).toMatch(message);
    }
  });

  it('never puts a cursor ahead of an event still being committed', async () => {
    const ws = newId('wsp');
    const start = await feed.page({ workspace: ws, after: 'now' });
    expect(start.data).toEqual([]);

    // An append held open (its transaction took the lock and a position, and has not committed).
    const slow = event(ws);
    const runner = other.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query(`SELECT pg_advisory_xact_lock(hashtext('custodian.delivery.event_feed'))`);
      await runner.query(
        `INSERT INTO delivery.event_feed (position, event_id, workspace_id, event, payload)
         VALUES (nextval('delivery.event_feed_position'), $1, $2, $3, $4)`,
        [slow.id, ws, slow.event, JSON.stringify({ id: slow.id })],
      );
      // A second append waits for the first to commit; the reader meanwhile sees neither.
      const fast = event(ws);
      const waiting = appendToFeed(db, [fast]);
      const during = await feed.page({ workspace: ws, after: start.next });
      expect(during.data).toEqual([]);
      await runner.commitTransaction();
      await waiting;

      const read = await readAll(ws, during.next);
      expect(read.ids).toEqual([slow.id, fast.id]);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });

  it('has every event exactly once for a reader polling while two writers append at once', async () => {
    const ws = newId('wsp');
    const written: string[] = [];
    const writer = async (pool: DataSource) => {
      for (let i = 0; i < 40; i++) {
        const batch = Array.from({ length: 1 + (i % 4) }, () => event(ws));
        await appendToFeed(pool, batch);
        written.push(...batch.map((one) => one.id));
      }
    };
    const seen: string[] = [];
    let cursor: string | undefined = (await feed.page({ workspace: ws, after: 'now' })).next;
    let writing = true;
    const done = Promise.all([writer(db), writer(other)]).finally(() => (writing = false));
    while (writing) {
      const read = await readAll(ws, cursor, { limit: '7' });
      seen.push(...read.ids);
      cursor = read.next;
    }
    await done;
    seen.push(...(await readAll(ws, cursor)).ids);
    expect(seen).toHaveLength(written.length);
    expect(new Set(seen)).toEqual(new Set(written));
  });

  it('keeps the first position of an event appended again (a redelivered message)', async () => {
    const ws = newId('wsp');
    const [a, b] = [event(ws), event(ws)];
    const cursor = (await feed.page({ workspace: ws, after: 'now' })).next;
    expect(await appendToFeed(db, [a])).toBe(1);
    expect(await appendToFeed(db, [b, a])).toBe(1);
    expect((await readAll(ws, cursor)).ids).toEqual([a.id, b.id]);
  });

  it('prunes past the retention and answers an older cursor 410, naming the oldest kept', async () => {
    const ws = newId('wsp');
    const before = (await feed.page({ workspace: ws, after: 'now' })).next;
    const old = [event(ws), event(ws)];
    await appendToFeed(db, old);
    const kept = event(ws);
    await appendToFeed(db, [kept]);
    // The first two were stored 40 days ago; everything stored before them too.
    await db.query(
      `UPDATE delivery.event_feed SET stored_at = now() - interval '40 days'
       WHERE position <= (SELECT position FROM delivery.event_feed WHERE event_id = $1)`,
      [old[1]!.id],
    );
    expect(await pruneFeed(db, new Date(Date.now() - 30 * 86_400_000), 1)).toBeGreaterThan(1);

    const gone = await refusal(() => feed.page({ workspace: ws, after: before }));
    expect(gone.code).toBe('gone');
    expect(gone.message).toContain('older than the 30 days of events the feed keeps');
    expect(gone.message).toContain(
      `the oldest event still kept is ${kept.id} of ${kept.created_at}`,
    );
    const restart = /read on from after=(\S+)$/.exec(gone.message)?.[1];
    expect(restart).toBeDefined();
    expect((await readAll(ws, restart)).ids).toEqual([kept.id]);
    // No cursor: from the oldest event kept.
    expect((await readAll(ws)).ids).toEqual([kept.id]);
  });
});
