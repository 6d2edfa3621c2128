import { loggerParams } from '@custodian/runtime';
import { Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { LoggerModule } from 'nestjs-pino';
import { WorkerConfig } from './config/worker-config';
import { DatabaseModule } from './database/database.module';
import { EventConsumer } from './events/event-consumer';
import { HealthController } from './health/health.controller';

@Module({})
export class WorkerAppModule {
  static forConfig(config: WorkerConfig): DynamicModule {
    return {
      module: WorkerAppModule,
      global: true,
      imports: [
        LoggerModule.forRoot(loggerParams('webhook-worker', config)),
        TerminusModule.forRoot({ logger: false }),
        DatabaseModule,
      ],
      controllers: [HealthController],
      providers: [{ provide: WorkerConfig, useValue: config }, EventConsumer],
      exports: [WorkerConfig],
    };
  }
}
