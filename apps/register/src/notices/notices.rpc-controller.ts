import { CallerMessage, RegisterRpc, UpdateNoticeSettingsMessage } from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { NoticesService } from './notices.service';

@Controller()
export class NoticesRpcController {
  constructor(private readonly notices: NoticesService) {}

  @Handles(RegisterRpc.noticeSettingsGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: CallerMessage) {
    return this.notices.get(message.caller);
  }

  @Handles(RegisterRpc.noticeSettingsUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() message: UpdateNoticeSettingsMessage) {
    return this.notices.update(message.caller, message.body);
  }
}
