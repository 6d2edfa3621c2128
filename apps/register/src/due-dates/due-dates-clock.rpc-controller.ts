import { DomainError, OverdueSweepInput, RegisterAdminRpc } from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RegisterConfig } from '../config/register-config';
import { REGISTER_ADMIN_TRANSPORT } from '../rpc/transports';
import { DueDateEngine } from './due-date-engine';

/**
 * The due-date engine's test clock: with OVERDUE_TEST_CLOCK=on, a test moves the engine's
 * "now" past a due date and sees the notice (assignment.overdue) arrive, through the same run
 * the timer makes. The message keeps the name it had when the overdue sweep answered it.
 */
@Controller()
export class DueDatesClockRpcController {
  constructor(
    private readonly engine: DueDateEngine,
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
    const run = await this.engine.runDue(new Date(input.at));
    return { fired: run.fired };
  }
}
