import { Global, Module } from '@nestjs/common';
import { AppliedRequestPruner } from './applied-request-pruner';
import { WriteTransactions } from './write-transactions';

/** Writes applied once per request (WriteTransactions), and the pruning of their records. */
@Global()
@Module({
  providers: [WriteTransactions, AppliedRequestPruner],
  exports: [WriteTransactions],
})
export class RequestsModule {}
