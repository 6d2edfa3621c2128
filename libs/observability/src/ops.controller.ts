import { Controller, Get, Header, Res, type OnApplicationShutdown } from '@nestjs/common';
import { metricsText } from './metrics';
import { stopTracing } from './tracing';

/**
 * What an orchestrator and Prometheus ask of an app on its health port: `/health/live` (the
 * process answers; no dependency is checked, so an outage of Postgres does not get every
 * replica restarted) and `/metrics`. Readiness is each app's own `/health`.
 */
@Controller()
export class OpsController implements OnApplicationShutdown {
  @Get('health/live')
  @Header('cache-control', 'no-store')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** The spans still buffered go out before the process ends. */
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }

  @Get('metrics')
  async metrics(
    @Res({ passthrough: true }) reply: { header(name: string, value: string): unknown },
  ): Promise<string> {
    const { contentType, body } = await metricsText();
    reply.header('content-type', contentType);
    return body;
  }
}
