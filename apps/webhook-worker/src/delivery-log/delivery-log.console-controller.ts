import {
  ConsoleRecordMessage,
  DeliveriesResendMessage,
  DeliverySearchMessage,
  WorkerConsoleRpc,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DeliveryLogService } from './delivery-log.service';

/** The console's delivery log, forwarded by the gateway with the member's workspace. */
@Controller()
export class DeliveryLogConsoleController {
  constructor(private readonly log: DeliveryLogService) {}

  @Handles(WorkerConsoleRpc.deliverySearch)
  search(@Payload() input: DeliverySearchMessage) {
    return this.log.search(input);
  }

  @Handles(WorkerConsoleRpc.deliveryGet)
  get(@Payload() input: ConsoleRecordMessage) {
    return this.log.get(input.workspace, input.id);
  }

  @Handles(WorkerConsoleRpc.deliveryResend)
  resend(@Payload() input: ConsoleRecordMessage) {
    return this.log.resend(input.workspace, input.id);
  }

  @Handles(WorkerConsoleRpc.deliveriesResend)
  resendFailed(@Payload() input: DeliveriesResendMessage) {
    return this.log.resendFailed(input);
  }
}
