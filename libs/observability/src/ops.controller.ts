import { Controller, Get, Header, Res } from '@nestjs/common';
import { metricsText } from './metrics';

/**
 * What an orchestrator and Prometheus ask of an app on its health port: `/health/live` (the
 * process answers; no dependency is checked, so an outage of Postgres does not get every
 * replica restarted) and `/metrics`. Readiness is each app's own `/health`.
 */
@Controller()
export class OpsController {
  @Get('health/live')
  @Header('cache-control', 'no-store')
  live(): { status: 'ok' } {
    return { status: 'ok' };
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
