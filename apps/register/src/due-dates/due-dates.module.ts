import { Module } from '@nestjs/common';
import { DueDateEngine } from './due-date-engine';

/**
 * The due-date engine: a domain's module imports this one and registers its kinds' handlers
 * on DueDateEngine at start; it arms and cancels notices with due-notice.store.ts.
 */
@Module({
  providers: [DueDateEngine],
  exports: [DueDateEngine],
})
export class DueDatesModule {}
