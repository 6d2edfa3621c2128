import type { EventFeedPage, Import } from '@custodian/contracts';
import type { ChildProcess } from 'node:child_process';
import { Client } from 'pg';
import { okCount } from './load';
import { paced } from './paced';
import {
  benchStackEnv,
  deleteBenchTopology,
  dropDatabase,
  startApps,
  stopAll,
  type BenchEnv,
} from './processes';
import { quantile } from './quantile';
import { processRssKb, sampleRss } from './rss';
import { createTenant, type BenchTenant } from './tenant';

/*
 * Issue 35's benches, each on the whole stack from dist (gateway, register, webhook-worker):
 *
 *   npm run bench -- feed     the change feed at 200 writes a second: lag and read rate
 *   npm run bench -- export   a CSV export of 1,000,000 assets: rows a second, RSS growth
 *   npm run bench -- import   a CSV import of 100,000 rows: rows a second, peak RSS
 */

const GATEWAY_PORT = 3250;

interface Stack {
  env: BenchEnv;
  tenant: BenchTenant;
  db: Client;
  base: string;
  pids: Record<string, number>;
  auth: Record<string, string>;
}

/** A stack of its own, a tenant on the enterprise plan with a write key, then `work`. */
async function withStack(name: string, work: (stack: Stack) => Promise<void>): Promise<void> {
  const run = `${name}_${Date.now()}`;
  const env = benchStackEnv(run);
  let children: ChildProcess[] = [];
  const db = new Client({ connectionString: env.DATABASE_URL });
  try {
    const started = await startApps(env, GATEWAY_PORT);
    children = started.children;
    await db.connect();
    const tenant = await createTenant(env, `${name} bench`, { scope: 'write' });
    await work({
      env,
      tenant,
      db,
      base: `http://127.0.0.1:${GATEWAY_PORT}/api/v1`,
      pids: started.pids,
      auth: { authorization: `Bearer ${tenant.key.key}` },
    });
  } finally {
    await db.end().catch(() => undefined);
    await stopAll(children);
    await deleteBenchTopology(env);
    await dropDatabase(`custodian_bench_${run}`);
  }
}

/**
 * Writes at BENCH_FEED_RATE a second (asset creates, default 200) for BENCH_FEED_SECONDS
 * (default 20) while a follower reads the feed from its cursor as a receiver would (a page of
 * up to 1,000, again at once while `has_more`, else after 100 ms): for each event, its lag is
 * when the follower first read it minus its `created_at` (when its write began). Then the
 * whole feed is read from its start as fast as pages come: its read rate.
 */
export async function benchFeed(): Promise<void> {
  const rate = Number(process.env.BENCH_FEED_RATE ?? 200);
  const seconds = Number(process.env.BENCH_FEED_SECONDS ?? 20);
  await withStack('feed', async ({ base, auth }) => {
    const page = async (after: string | undefined, limit = 1000): Promise<EventFeedPage> => {
      const query = new URLSearchParams({ limit: String(limit), ...(after ? { after } : {}) });
      const res = await fetch(`${base}/events?${query}`, { headers: auth });
      if (res.status !== 200) throw new Error(`GET /events: ${res.status} ${await res.text()}`);
      return (await res.json()) as EventFeedPage;
    };
    let cursor = (await page('now')).next;
    const lags: number[] = [];
    let following = true;
    const follower = (async () => {
      while (following) {
        const read = await page(cursor);
        const at = Date.now();
        for (const event of read.data) lags.push(at - Date.parse(event.created_at));
        cursor = read.next;
        if (!read.has_more) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const load = await paced({
      name: 'asset creates',
      url: base,
      paths: [new URL(`${base}/assets`).pathname],
      headers: auth,
      ratePerSecond: rate,
      durationSeconds: seconds,
      connections: 64,
      postBody: (i) => JSON.stringify({ name: `Feed bench ${i}` }),
    });
    // The follower catches up with the last writes.
    const sent = Object.values(load.statuses).reduce((sum, n) => sum + n, 0) + load.errors;
    const expected = okCount(load.statuses);
    const deadline = Date.now() + 60_000;
    while (lags.length < expected && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    following = false;
    await follower;
    lags.sort((a, b) => a - b);

    const started = performance.now();
    let events = 0;
    let pages = 0;
    for (let after: string | undefined; ;) {
      const read = await page(after);
      events += read.data.length;
      pages += 1;
      after = read.next;
      if (!read.has_more) break;
    }
    const readMs = performance.now() - started;

    console.log('');
    console.log(`change feed: ${rate} writes/s for ${seconds} s (asset creates), one follower`);
    console.log(
      '| writes sent | writes ok | events followed | lag p50 ms | lag p95 ms | lag p99 ms | lag max ms |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    console.log(
      `| ${sent} | ${expected} | ${lags.length} | ${quantile(lags, 0.5)} | ` +
        `${quantile(lags, 0.95)} | ${quantile(lags, 0.99)} | ${lags.at(-1) ?? '-'} |`,
    );
    console.log('');
    console.log('| read from the start: events | pages of 1,000 | ms | events/s |');
    console.log('| --- | --- | --- | --- |');
    console.log(
      `| ${events} | ${pages} | ${Math.round(readMs)} | ${Math.round((events / readMs) * 1000)} |`,
    );
  });
}

/**
 * Seeds BENCH_EXPORT_ASSETS assets (default 1,000,000; with a category, a location and a
 * custom field value each), then downloads GET /assets/export BENCH_EXPORT_RUNS times (2) as a
 * client would, reading the stream as it comes: rows a second, and each app's RSS after each
 * download less its RSS before the first.
 */
export async function benchExport(): Promise<void> {
  const count = Number(process.env.BENCH_EXPORT_ASSETS ?? 1_000_000);
  const repeat = Number(process.env.BENCH_EXPORT_RUNS ?? 2);
  await withStack('export', async ({ base, auth, db, tenant, pids }) => {
    const workspace = tenant.workspace.id;
    const seeding = performance.now();
    await db.query(
      `INSERT INTO register.categories (id, workspace_id, name) VALUES ('cat_bench', $1, 'Laptops')`,
      [workspace],
    );
    await db.query(
      `INSERT INTO register.locations (id, workspace_id, name) VALUES ('loc_bench', $1, 'HQ')`,
      [workspace],
    );
    for (let from = 1; from <= count; from += 250_000) {
      await db.query(
        `INSERT INTO register.assets (id, workspace_id, name, asset_tag, serial_number,
           category_id, location_id, custom_fields)
         SELECT 'ast_bench' || lpad(g::text, 20, '0'), $1, 'Asset ' || g,
           'EX-' || lpad(g::text, 7, '0'), 'SN' || g, 'cat_bench', 'loc_bench',
           jsonb_build_object('cost_center', 'CC-' || (g % 100))
         FROM generate_series($2::int, $3::int) g`,
        [workspace, from, Math.min(count, from + 249_999)],
      );
    }
    await db.query(`ANALYZE register.assets`);
    console.log(`seeded ${count} assets in ${Math.round((performance.now() - seeding) / 1000)} s`);

    const before = Object.fromEntries(
      Object.entries(pids).map(([name, pid]) => [name, processRssKb(pid)]),
    );
    console.log('');
    console.log(`CSV export of ${count} assets (GET /api/v1/assets/export, every column)`);
    console.log(
      '| run | rows | MB | first byte ms | total s | rows/s | RSS growth MB (gateway, register, worker) |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    // More than one run tells growth that settles (the collector's own pace) from growth
    // that goes on (a leak): each run's growth is measured from the RSS before the first.
    for (let run = 1; run <= repeat; run++) {
      const rss = sampleRss(pids, 100);
      const started = performance.now();
      const res = await fetch(`${base}/assets/export`, { headers: auth });
      if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status}`);
      let bytes = 0;
      let lines = 0;
      let firstByteMs = 0;
      const reader = res.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += value.length;
        for (const byte of value) if (byte === 10) lines += 1;
      }
      const ms = performance.now() - started;
      rss.stop();
      const growth = Object.fromEntries(
        Object.entries(pids).map(([name, pid]) => [
          name,
          Math.max(0, (processRssKb(pid) - (before[name] ?? 0)) / 1024),
        ]),
      );
      const rows = lines - 1;
      console.log(
        `| ${run} | ${rows} | ${(bytes / 1e6).toFixed(1)} | ${Math.round(firstByteMs)} | ` +
          `${(ms / 1000).toFixed(1)} | ${Math.round((rows / ms) * 1000)} | ` +
          `${Object.values(growth)
            .map((mb) => mb.toFixed(1))
            .join(', ')} |`,
      );
    }
    console.log('');
    console.log(
      `RSS before: ${Object.entries(before)
        .map(([name, kb]) => `${name} ${(kb / 1024).toFixed(0)} MB`)
        .join(', ')}`,
    );
  });
}

/**
 * Uploads a CSV of BENCH_IMPORT_ROWS new assets (default 100,000; name, tag, serial, brand,
 * status) with dry_run=false and follows it to the end: the upload's time, the dry run's,
 * the import's, rows a second, and each app's peak RSS.
 */
export async function benchImport(): Promise<void> {
  const count = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
  await withStack('import', async ({ base, auth, pids }) => {
    const lines = ['name,asset_tag,serial_number,brand,status'];
    for (let i = 1; i <= count; i++) {
      lines.push(`Imported asset ${i},IM-${String(i).padStart(7, '0')},SER-${i},Lenovo,active`);
    }
    const csv = `${lines.join('\r\n')}\r\n`;
    const peak: Record<string, number> = {};
    const sample = setInterval(() => {
      for (const [name, pid] of Object.entries(pids)) {
        peak[name] = Math.max(peak[name] ?? 0, processRssKb(pid));
      }
    }, 100);
    const started = performance.now();
    const res = await fetch(`${base}/imports?type=assets&dry_run=false&filename=bench.csv`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/csv' },
      body: csv,
    });
    const created = (await res.json()) as Import;
    if (res.status !== 202) throw new Error(`import: ${res.status} ${JSON.stringify(created)}`);
    const uploadMs = performance.now() - started;
    let planMs = 0;
    let last: Import = created;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      last = (await (
        await fetch(`${base}/imports/${created.id}`, { headers: auth })
      ).json()) as Import;
      if (planMs === 0 && last.status !== 'planning')
        planMs = performance.now() - started - uploadMs;
      if (['completed', 'failed', 'cancelled'].includes(last.status)) break;
    }
    const totalMs = performance.now() - started;
    clearInterval(sample);

    console.log('');
    console.log(`CSV import of ${count} new assets (POST /api/v1/imports, dry_run=false)`);
    console.log(
      '| MB | upload s | dry run s | import s | total s | rows/s (total) | status | results |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
    console.log(
      `| ${(csv.length / 1e6).toFixed(1)} | ${(uploadMs / 1000).toFixed(1)} | ` +
        `${(planMs / 1000).toFixed(1)} | ${((totalMs - uploadMs - planMs) / 1000).toFixed(1)} | ` +
        `${(totalMs / 1000).toFixed(1)} | ${Math.round((count / totalMs) * 1000)} | ` +
        `${last.status} | ${JSON.stringify(last.results)} |`,
    );
    console.log('');
    console.log('| app | peak RSS MB |');
    console.log('| --- | --- |');
    for (const [name, kb] of Object.entries(peak)) {
      console.log(`| ${name} | ${(kb / 1024).toFixed(0)} |`);
    }
  });
}
