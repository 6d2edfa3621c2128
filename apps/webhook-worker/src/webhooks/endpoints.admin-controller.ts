import { WorkerAdminPatterns } from '@custodian/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { WORKER_ADMIN_TRANSPORT } from '../admin/admin-rpc-server.handle';
import { EndpointsService } from './endpoints.service';

@Controller()
export class EndpointsAdminController {
  constructor(private readonly endpoints: EndpointsService) {}

  @MessagePattern(WorkerAdminPatterns.webhookCreate, WORKER_ADMIN_TRANSPORT)
  create(@Payload() payload: unknown) {
    return this.endpoints.create(payload);
  }

  @MessagePattern(WorkerAdminPatterns.webhookList, WORKER_ADMIN_TRANSPORT)
  list(@Payload() payload: unknown) {
    return this.endpoints.list(payload);
  }

  @MessagePattern(WorkerAdminPatterns.webhookTest, WORKER_ADMIN_TRANSPORT)
  test(@Payload() payload: unknown) {
    return this.endpoints.test(payload);
  }

  @MessagePattern(WorkerAdminPatterns.deliveries, WORKER_ADMIN_TRANSPORT)
  deliveries(@Payload() payload: unknown) {
    return this.endpoints.deliveries(payload);
  }
}
