import { likePattern } from '@custodian/register-sql';
import type { Client } from 'pg';

/** Assets per fake tenant of the many-tenant seed, and in the real workspace searched there. */
export const TENANT_ASSETS = 1000;

/**
 * The search terms of the cases, one per class of issue 13, with what the seed gives them at
 * 1,000,000 assets (the bench prints the actual counts at the size it seeded).
 */
export const TERMS = {
  /** Serials `SN-%08d`: 00042000..00042999, 1,000 at 1M. */
  selective: ['sn-00042'],
  /** Brands `Brand-(n % 50)`: 3 and 30..39, 22%. */
  broad: ['brand-3'],
  /** Names `Asset n`: 12345 and 123450..123459, 11. */
  twoWord: ['asset 12345'],
  /** One tag and one serial, typed whole. */
  exact: ['at-0123456', 'sn-00123456'],
  /** Escaped LIKE wildcards and a slash: the SKU of one asset in 1,000 ends `/50%_B`. */
  punctuation: ['50%_b'],
  /** In a 1,000-asset workspace whose 5,000 neighbours hold the same kinds of rows. */
  tenant: ['asset 42', 'brand-3', 'model 7', 'sn-00000042'],
} as const;

export interface SeedTimes {
  insertMs: number;
  vacuumMs: number;
}

const ASSET_COLUMNS = `id, workspace_id, name, sku, status, brand, model, serial_number,
  asset_tag, category_id, created_at, updated_at`;

/**
 * The values of one generated asset: `g` numbers it across the statement (its id), `i` within
 * its workspace (name, tag, serial...), so every workspace holds the same kinds of rows, and
 * created_at follows `i` so the list order is the generation order. Asset tags take 7 digits:
 * 6 collided past 999,999.
 */
function assetValues(workspace: string, category: string, perWorkspace: string): string {
  return `'ast_' || $1::text || g, ${workspace}, 'Asset ' || i,
    'SKU-' || i || CASE WHEN i % 1000 = 500 THEN '/50%_B' ELSE '' END,
    (ARRAY['active','maintenance','retired','lost','stolen','inactive'])[1 + i % 6],
    'Brand-' || (i % 50), 'Model ' || (i % 500), 'SN-' || lpad(i::text, 8, '0'),
    'AT-' || lpad(i::text, 7, '0'), ${category},
    now() - make_interval(secs => (${perWorkspace}::int - i)), now()`;
}

/**
 * `count` assets (and 20 categories) in one workspace, in one INSERT ... SELECT: the bench
 * measures reads, not a million API writes. The migrations' indexes are in place, as in
 * production; building the trigram index afterwards instead was no faster (18 s insert + 23 s
 * index against 42 s at 1M).
 */
export async function seedWorkspace(
  client: Client,
  workspaceId: string,
  count: number,
  idPrefix: string,
): Promise<SeedTimes> {
  const started = Date.now();
  await client.query(
    `INSERT INTO register.categories (id, workspace_id, name)
     SELECT 'cat_' || $1::text || g, $2, 'Category ' || g FROM generate_series(1, 20) g`,
    [idPrefix, workspaceId],
  );
  await client.query(
    `INSERT INTO register.assets (${ASSET_COLUMNS})
     SELECT ${assetValues('$2', `'cat_' || $1::text || (1 + i % 20)`, '$3')}
     FROM (SELECT g, g AS i FROM generate_series(1, $3::int) g) s`,
    [idPrefix, workspaceId, count],
  );
  await setCounters(client, `SELECT $1::text, $2::int`, [workspaceId, count]);
  const insertMs = Date.now() - started;
  return { insertMs, vacuumMs: await settle(client) };
}

/**
 * The many-tenant seed: `tenants` workspaces `wsp_bench_<n>` of 1,000 assets each, with their
 * counters, a million rows per INSERT. They exist only in the register's tables: no gateway
 * workspace or key, as nothing calls them.
 */
export async function seedTenants(
  client: Client,
  tenants: number,
  progress: (done: number) => void,
): Promise<SeedTimes> {
  const started = Date.now();
  const perStatement = Math.max(1, Math.floor(1_000_000 / TENANT_ASSETS));
  for (let first = 1; first <= tenants; first += perStatement) {
    const last = Math.min(tenants, first + perStatement - 1);
    await client.query(
      `INSERT INTO register.assets (${ASSET_COLUMNS})
       SELECT ${assetValues(`'wsp_bench_' || ((g - 1) / $2::int + 1)`, 'NULL', '$2')}
       FROM (SELECT g, (g - 1) % $2::int + 1 AS i
             FROM generate_series(($3::int - 1) * $2::int + 1, $4::int * $2::int) g) s`,
      ['tenant', TENANT_ASSETS, first, last],
    );
    progress(last);
  }
  await setCounters(
    client,
    `SELECT 'wsp_bench_' || n, $1::int FROM generate_series(1, $2::int) n`,
    [TENANT_ASSETS, tenants],
  );
  const insertMs = Date.now() - started;
  return { insertMs, vacuumMs: await settle(client) };
}

/** The register keeps the unfiltered total and the tag sequence in workspace_counters. */
async function setCounters(client: Client, rows: string, params: unknown[]): Promise<void> {
  await client.query(
    `INSERT INTO register.workspace_counters (workspace_id, asset_tag_seq, asset_count)
     SELECT w, n, n FROM (${rows}) r (w, n)
     ON CONFLICT (workspace_id) DO UPDATE
       SET asset_tag_seq = EXCLUDED.asset_tag_seq, asset_count = EXCLUDED.asset_count`,
    params,
  );
}

/** Settles the table now, or autovacuum and a checkpoint would land in the middle of a run. */
async function settle(client: Client): Promise<number> {
  const started = Date.now();
  await client.query('VACUUM ANALYZE register.assets');
  await client.query('CHECKPOINT');
  return Date.now() - started;
}

/** How many assets of the workspace each term matches, by the register's matching rule. */
export async function matchCounts(
  client: Client,
  workspaceId: string,
  terms: readonly string[],
): Promise<Array<{ term: string; matches: number }>> {
  const counts = [];
  for (const term of terms) {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM register.assets
       WHERE workspace_id = $1 AND search_text LIKE lower($2)`,
      [workspaceId, likePattern(term)],
    );
    counts.push({ term, matches: rows[0]?.n ?? 0 });
  }
  return counts;
}

/** `n` asset ids of the workspace, at random: what the single fetch asks for. */
export async function sampleIds(client: Client, workspaceId: string, n: number) {
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM register.assets WHERE workspace_id = $1 ORDER BY random() LIMIT $2`,
    [workspaceId, n],
  );
  return rows.map((row) => row.id);
}
