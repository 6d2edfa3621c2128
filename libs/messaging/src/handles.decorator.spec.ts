import {
  CreateAssetMessage,
  RecordMessage,
  RegisterRpc,
  UpdateAssetMessage,
  type AssetDetail,
} from '@custodian/contracts';
import { PATTERN_METADATA, TRANSPORT_METADATA } from '@nestjs/microservices/constants';
import { Handles } from './handles.decorator';

const asset = {} as AssetDetail;
const TRANSPORT = Symbol('test-transport');

class Handlers {
  @Handles(RegisterRpc.assetsUpdate, TRANSPORT)
  update(message: UpdateAssetMessage): Promise<AssetDetail> {
    return Promise.resolve({ ...asset, id: message.id });
  }

  /** Taking less than the request carries is fine. */
  @Handles(RegisterRpc.assetsUpdate)
  touch(message: RecordMessage): Promise<AssetDetail> {
    return Promise.resolve({ ...asset, id: message.id });
  }
}

// These fail to compile; `tsc` (npm run typecheck, CI) fails if one ever compiles.
export class WrongHandlers {
  // @ts-expect-error: expects a body that assets.get never sends
  @Handles(RegisterRpc.assetsGet) get(message: UpdateAssetMessage): Promise<AssetDetail> {
    return Promise.resolve({ ...asset, id: message.id });
  }

  // @ts-expect-error: expects a create body where assets.update sends a partial one
  @Handles(RegisterRpc.assetsUpdate) update(message: CreateAssetMessage): Promise<AssetDetail> {
    return Promise.resolve({ ...asset, name: message.body.name });
  }

  // @ts-expect-error: answers something other than the contract's reply
  @Handles(RegisterRpc.assetsGet) name(message: RecordMessage): Promise<string> {
    return Promise.resolve(message.id);
  }
}

describe('@Handles', () => {
  it("serves the contract's pattern, on the transport given", () => {
    const metadata = (key: string, method: 'update' | 'touch'): unknown =>
      Reflect.getMetadata(key, Reflect.get(Handlers.prototype, method));
    expect(metadata(PATTERN_METADATA, 'update')).toEqual(['assets.update']);
    expect(metadata(TRANSPORT_METADATA, 'update')).toBe(TRANSPORT);
    expect(metadata(PATTERN_METADATA, 'touch')).toEqual(['assets.update']);
  });
});
