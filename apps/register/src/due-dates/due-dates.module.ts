import { Module } from '@nestjs/common';
import { DueDateEngine } from './due-date-engine';
import { DueDatesClockRpcController } from './due-dates-clock.rpc-controller';

/**
 * The due-date engine: a domain's module imports this one and registers its kinds' handlers
 * on DueDateEngine at start; it arms and cancels notices with due-notice.store.ts.
 */
@Module({
  controllers: [DueDatesClockRpcController],
  providers: [DueDateEngine],
  exports: [DueDateEngine],
})
export class DueDatesModule {}
