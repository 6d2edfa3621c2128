import {
  ImportAppendMessage,
  ImportCreateMessage,
  ImportFailMessage,
  ImportListMessage,
  ImportRowsMessage,
  ImportSealMessage,
  RecordMessage,
  RegisterRpc,
} from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { ImportsService } from './imports.service';

/** CSV imports: the gateway's upload (create, append, seal) and the API's reads and goes. */
@Controller()
export class ImportsRpcController {
  constructor(private readonly imports: ImportsService) {}

  @Handles(RegisterRpc.importsCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() message: ImportCreateMessage) {
    return this.imports.create(message.caller, message);
  }

  @Handles(RegisterRpc.importsAppend, REGISTER_RPC_TRANSPORT)
  append(@Payload() message: ImportAppendMessage) {
    return this.imports.append(message.caller, message);
  }

  @Handles(RegisterRpc.importsSeal, REGISTER_RPC_TRANSPORT)
  seal(@Payload() message: ImportSealMessage) {
    return this.imports.seal(message.caller, message.id, message.rows);
  }

  @Handles(RegisterRpc.importsFail, REGISTER_RPC_TRANSPORT)
  fail(@Payload() message: ImportFailMessage) {
    return this.imports.fail(message.caller, message.id, message.reason);
  }

  @Handles(RegisterRpc.importsGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() message: RecordMessage) {
    return this.imports.get(message.caller, message.id);
  }

  @Handles(RegisterRpc.importsList, REGISTER_RPC_TRANSPORT)
  list(@Payload() message: ImportListMessage) {
    return this.imports.list(message.caller, message.query);
  }

  @Handles(RegisterRpc.importsRows, REGISTER_RPC_TRANSPORT)
  rows(@Payload() message: ImportRowsMessage) {
    return this.imports.rows(message.caller, message.id, message.query);
  }

  @Handles(RegisterRpc.importsStart, REGISTER_RPC_TRANSPORT)
  start(@Payload() message: RecordMessage) {
    return this.imports.start(message.caller, message.id);
  }

  @Handles(RegisterRpc.importsCancel, REGISTER_RPC_TRANSPORT)
  cancel(@Payload() message: RecordMessage) {
    return this.imports.cancel(message.caller, message.id);
  }
}
