import type { ReplyOf, RequestOf, RpcContract } from '@custodian/contracts';
import { MessagePattern } from '@nestjs/microservices';

/** A handler of contract C: takes (at least) what C's request carries, answers C's reply. */
type HandlerOf<C extends RpcContract> = (message: RequestOf<C>) => Promise<ReplyOf<C>>;

/**
 * `@Handles(RegisterRpc.assetsUpdate)`: serves the contract's pattern (on one transport of the
 * app when given) and makes the compiler hold the handler to the contract. The parameter is
 * checked contravariantly on purpose: TypeScript compares methods bivariantly, which would let
 * a handler expect fields the producer never sends.
 */
export function Handles<C extends RpcContract>(contract: C, transport?: symbol) {
  return <M extends HandlerOf<C>>(
    target: object,
    key: string | symbol,
    descriptor: RequestOf<C> extends Parameters<M>[0] ? TypedPropertyDescriptor<M> : never,
  ): void => {
    MessagePattern(contract.pattern, transport)(target, key, descriptor);
  };
}
