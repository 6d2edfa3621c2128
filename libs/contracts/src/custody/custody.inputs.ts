import { InstantField } from '../fields/field.decorators';

/** Admin queue, tests only (OVERDUE_TEST_CLOCK=on): the overdue sweep, as if it were `at`. */
export class OverdueSweepInput {
  @InstantField() at!: string;
}
