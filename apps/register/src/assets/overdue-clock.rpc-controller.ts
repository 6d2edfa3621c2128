import { DomainError, OverdueSweepInput, RegisterAdminRpc } from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RegisterConfig } from '../config/register-config';
import { REGISTER_ADMIN_TRANSPORT } from '../rpc/transports';
import { OverdueSweep } from './overdue-sweep';

/**
 * The overdue sweep's test clock: with OVERDUE_TEST_CLOCK=on, a test moves the sweep's "now"
 * past a due date and sees assignment.overdue arrive, through the same sweep the timer runs.
 */
@Controller()
export class OverdueClockRpcController {
  constructor(
    private readonly sweep: OverdueSweep,
    @Inject(RegisterConfig) private readonly config: Pick<RegisterConfig, 'OVERDUE_TEST_CLOCK'>,
  ) {}

  @Handles(RegisterAdminRpc.overdueSweep, REGISTER_ADMIN_TRANSPORT)
  async run(@Payload() input: OverdueSweepInput) {
    if (this.config.OVERDUE_TEST_CLOCK !== 'on') {
      throw new DomainError(
        'forbidden',
        'The overdue test clock is off (OVERDUE_TEST_CLOCK=on turns it on, for tests only)',
      );
    }
    return { fired: await this.sweep.sweep(new Date(input.at)) };
  }
}
