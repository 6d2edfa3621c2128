import { AppliedRequestPruner } from '@custodian/messaging';
import { ListCache } from '@custodian/register-sql';
import { Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RegisterConfig, heavyReadLimit } from '../config/register-config';
import { ReadTransactions } from './read-transactions';
import { WriteTransactions } from './write-transactions';

/**
 * Requests bound to their deadline: writes applied once per request (WriteTransactions) and
 * the pruning of their records, reads admitted by class and cancelled at the deadline
 * (ReadTransactions), and what lists remember between requests (ListCache).
 */
@Global()
@Module({
  providers: [
    {
      provide: WriteTransactions,
      inject: [DataSource, RegisterConfig],
      useFactory: (db: DataSource, config: RegisterConfig) =>
        new WriteTransactions(db, config.REGISTER_DEADLINE_MARGIN_MS),
    },
    {
      provide: ReadTransactions,
      inject: [DataSource, RegisterConfig],
      useFactory: (db: DataSource, config: RegisterConfig) => {
        const heavy = heavyReadLimit(config);
        return new ReadTransactions(db, {
          heavyConcurrency: heavy,
          // The lane's prefetch, less the running ones and one slot kept free, so that what
          // comes next is always taken off the queue and answered (refused at once, if so).
          heavyLine: config.RPC_PREFETCH - heavy - 1,
          marginMs: config.REGISTER_DEADLINE_MARGIN_MS,
          poolStatementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
        });
      },
    },
    {
      provide: AppliedRequestPruner,
      inject: [DataSource],
      useFactory: (db: DataSource) => new AppliedRequestPruner(db, 'register'),
    },
    // One per process, shared by the lists of assets and people (docs/adr/0014).
    { provide: ListCache, useFactory: () => new ListCache() },
  ],
  exports: [WriteTransactions, ReadTransactions, ListCache],
})
export class RequestsModule {}
