import { ExportChunkMessage, RegisterRpc } from '@custodian/contracts';
import { Handles } from '@custodian/messaging';
import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/transports';
import { AssetExports } from './asset-export';
import { PersonExports } from './person-export';

/** CSV exports, one chunk per message: the gateway streams them to the client in turn. */
@Controller()
export class ExportsRpcController {
  constructor(
    private readonly assets: AssetExports,
    private readonly people: PersonExports,
  ) {}

  @Handles(RegisterRpc.assetsExport, REGISTER_RPC_TRANSPORT)
  assetsChunk(@Payload() message: ExportChunkMessage) {
    return this.assets.chunk(message.caller, message);
  }

  @Handles(RegisterRpc.peopleExport, REGISTER_RPC_TRANSPORT)
  peopleChunk(@Payload() message: ExportChunkMessage) {
    return this.people.chunk(message.caller, message);
  }
}
