import { ActivityListMessage, RegisterAdminRpc } from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { ActivityLog } from '@custodian/persistence';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DataSource } from 'typeorm';
import { REGISTER_ADMIN_TRANSPORT } from '../rpc/transports';

/** The register's part of the console's activity feed: assets, people and members. */
@Controller()
export class ActivityRpcController {
  constructor(
    private readonly db: DataSource,
    private readonly activity: ActivityLog,
  ) {}

  @Handles(RegisterAdminRpc.activityList, REGISTER_ADMIN_TRANSPORT)
  list(@Payload() message: ActivityListMessage) {
    return this.activity.page(this.db.manager, message.workspace, message.filter);
  }
}
