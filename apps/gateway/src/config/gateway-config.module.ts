import { Global, Module, type DynamicModule } from '@nestjs/common';
import { GatewayConfig } from './gateway-config';

/** The validated environment, the one thing every module of the gateway may inject. */
@Global()
@Module({})
export class GatewayConfigModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayConfigModule,
      providers: [{ provide: GatewayConfig, useValue: config }],
      exports: [GatewayConfig],
    };
  }
}
