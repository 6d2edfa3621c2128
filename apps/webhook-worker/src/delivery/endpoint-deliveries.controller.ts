import {
  ConsoleRecordMessage,
  DeliveriesInput,
  WebhookTestInput,
  WorkerAdminRpc,
  WorkerConsoleRpc,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { EndpointDeliveries } from './endpoint-deliveries';

/** An endpoint's Test ping (admin CLI, console) and its delivery log (admin CLI). */
@Controller()
export class EndpointDeliveriesController {
  constructor(private readonly deliveries: EndpointDeliveries) {}

  @Handles(WorkerAdminRpc.webhookTest)
  testFromCli(@Payload() input: WebhookTestInput) {
    return this.deliveries.test(input.id);
  }

  @Handles(WorkerConsoleRpc.endpointTest)
  testFromConsole(@Payload() input: ConsoleRecordMessage) {
    return this.deliveries.test(input.id, input.workspace);
  }

  @Handles(WorkerAdminRpc.deliveries)
  list(@Payload() input: DeliveriesInput) {
    return this.deliveries.deliveries(input);
  }
}
