import {
  RegisterPatterns,
  type Page,
  type PersonDetail,
  type PersonSummary,
  type RawQuery,
  type RegisterRequest,
} from '@custodian/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/rpc-server.handle';
import { PeopleService } from './people.service';

@Controller()
export class PeopleRpcController {
  constructor(private readonly people: PeopleService) {}

  @MessagePattern(RegisterPatterns.peopleList, REGISTER_RPC_TRANSPORT)
  list(
    @Payload() req: RegisterRequest<{ query: RawQuery }>,
  ): Promise<PersonSummary[] | Page<PersonSummary>> {
    return this.people.list(req.caller, req.payload.query ?? {});
  }

  @MessagePattern(RegisterPatterns.peopleGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() req: RegisterRequest<{ id: string }>): Promise<PersonDetail> {
    return this.people.get(req.caller, req.payload.id);
  }

  @MessagePattern(RegisterPatterns.peopleCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() req: RegisterRequest<{ body: unknown }>): Promise<PersonDetail> {
    return this.people.create(req.caller, req.payload.body);
  }

  @MessagePattern(RegisterPatterns.peopleUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() req: RegisterRequest<{ id: string; body: unknown }>): Promise<PersonDetail> {
    return this.people.update(req.caller, req.payload.id, req.payload.body);
  }
}
