import { reply, rpc } from '../rpc/contract';
import { OverdueSweepInput } from './custody.inputs';
import type { OverdueSweepView } from './custody.views';

/** The custody work of the register's admin queue (RegisterAdminRpc). */
export const CUSTODY_ADMIN_RPC = {
  /**
   * Tests only: the due-date engine run at a given time (refused unless OVERDUE_TEST_CLOCK=on);
   * named when the overdue sweep answered it.
   */
  overdueSweep: rpc('admin.overdue.sweep', OverdueSweepInput, reply<OverdueSweepView>()),
};
