import {
  CalendarFeedTokenInput,
  CallerMessage,
  MemberRefInput,
  RegisterAdminRpc,
  RegisterRpc,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_ADMIN_TRANSPORT, REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { CalendarFeedsService } from './calendar-feeds.service';

/** A feed's events on the API queue, for the workspace the gateway resolved from its token. */
@Controller()
export class CalendarFeedsRpcController {
  constructor(private readonly feeds: CalendarFeedsService) {}

  @Handles(RegisterRpc.calendarFeedEvents, REGISTER_RPC_TRANSPORT)
  events(@Payload() message: CallerMessage) {
    return this.feeds.events(message.caller);
  }
}

/** Feed URLs on the admin queue: the console's card, and the gateway's token lookup. */
@Controller()
export class CalendarFeedsAdminRpcController {
  constructor(private readonly feeds: CalendarFeedsService) {}

  @Handles(RegisterAdminRpc.calendarFeedGet, REGISTER_ADMIN_TRANSPORT)
  get(@Payload() input: MemberRefInput) {
    return this.feeds.get(input);
  }

  @Handles(RegisterAdminRpc.calendarFeedIssue, REGISTER_ADMIN_TRANSPORT)
  issue(@Payload() input: MemberRefInput) {
    return this.feeds.issue(input);
  }

  @Handles(RegisterAdminRpc.calendarFeedRevoke, REGISTER_ADMIN_TRANSPORT)
  revoke(@Payload() input: MemberRefInput) {
    return this.feeds.revoke(input);
  }

  @Handles(RegisterAdminRpc.calendarFeedOpen, REGISTER_ADMIN_TRANSPORT)
  open(@Payload() input: CalendarFeedTokenInput) {
    return this.feeds.open(input);
  }
}
