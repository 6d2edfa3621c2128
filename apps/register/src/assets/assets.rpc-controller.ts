import {
  RegisterPatterns,
  type AssetDetail,
  type AssetSummary,
  type Page,
  type RawQuery,
  type RegisterRequest,
} from '@custodian/contracts';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { REGISTER_RPC_TRANSPORT } from '../rpc/rpc-server.handle';
import { AssetsService } from './assets.service';

@Controller()
export class AssetsRpcController {
  constructor(private readonly assets: AssetsService) {}

  @MessagePattern(RegisterPatterns.assetsList, REGISTER_RPC_TRANSPORT)
  list(
    @Payload() req: RegisterRequest<{ query: RawQuery }>,
  ): Promise<AssetSummary[] | Page<AssetSummary>> {
    return this.assets.list(req.caller, req.payload.query ?? {});
  }

  @MessagePattern(RegisterPatterns.assetsGet, REGISTER_RPC_TRANSPORT)
  get(@Payload() req: RegisterRequest<{ id: string }>): Promise<AssetDetail> {
    return this.assets.get(req.caller, req.payload.id);
  }

  @MessagePattern(RegisterPatterns.assetsCreate, REGISTER_RPC_TRANSPORT)
  create(@Payload() req: RegisterRequest<{ body: unknown }>): Promise<AssetDetail> {
    return this.assets.create(req.caller, req.payload.body);
  }

  @MessagePattern(RegisterPatterns.assetsUpdate, REGISTER_RPC_TRANSPORT)
  update(@Payload() req: RegisterRequest<{ id: string; body: unknown }>): Promise<AssetDetail> {
    return this.assets.update(req.caller, req.payload.id, req.payload.body);
  }
}
