import { InstantField } from '../fields/field.decorators';

/**
 * Admin queue, tests only (OVERDUE_TEST_CLOCK=on): a run of the register's due-date engine, as
 * if it were `at`.
 */
export class OverdueSweepInput {
  @InstantField() at!: string;
}
