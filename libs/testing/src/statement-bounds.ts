import type { DataSource } from 'typeorm';

/**
 * What a pool with statement and lock timeouts does, for each app's own test of its serving
 * pool: a statement past the bound is cancelled (57014), and a wait for a lock another
 * connection holds gives up (55P03), each with the connection back in the pool.
 */
export async function statementBounds(
  db: DataSource,
  boundMs: number,
): Promise<{ setting: string; slow: string; locked: string; after: number }> {
  const code = (work: Promise<unknown>) =>
    work.then(
      () => 'completed',
      (error: { code?: string }) => error.code ?? 'no code',
    );
  const [{ statement_timeout: setting }] =
    await db.query<[{ statement_timeout: string }]>(`SHOW statement_timeout`);
  const slow = await code(db.query(`SELECT pg_sleep($1)`, [(boundMs * 5) / 1000]));
  await db.query(`CREATE TABLE IF NOT EXISTS public.statement_bounds_probe (id int)`);
  const holder = db.createQueryRunner();
  await holder.connect();
  try {
    await holder.startTransaction();
    await holder.query(`LOCK TABLE public.statement_bounds_probe IN ACCESS EXCLUSIVE MODE`);
    const locked = await code(db.query(`SELECT count(*) FROM public.statement_bounds_probe`));
    await holder.rollbackTransaction();
    const [{ after }] = await db.query<[{ after: number }]>(`SELECT 1 AS after`);
    return { setting, slow, locked, after };
  } finally {
    await holder.release();
  }
}
