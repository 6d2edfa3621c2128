import { metricsText, stopTracing } from '@custodian/observability';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import Fastify, { type FastifyInstance } from 'fastify';
import { GatewayConfig } from '../config/gateway-config';
import { GatewayHealth } from './gateway-health';

/**
 * The gateway's health port (HEALTH_PORT), apart from its public one: `/health` (readiness),
 * `/health/live` (liveness: the process answers) and `/metrics`, as the register and the worker
 * serve them on theirs. Nothing here is reachable through the public port, so metrics are not
 * published to API clients; expose the port only inside the cluster.
 */
@Injectable()
export class OpsServer implements OnApplicationShutdown {
  private server: FastifyInstance | null = null;

  constructor(
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    private readonly health: GatewayHealth,
  ) {}

  /** Listens on HEALTH_PORT (0: a free port); returns the port. */
  async listen(): Promise<number> {
    const server = Fastify({ logger: false });
    server.get('/health', async (_request, reply) => {
      const { httpStatus, body } = await this.health.report();
      return reply.status(httpStatus).header('cache-control', 'no-store').send(body);
    });
    server.get('/health/live', (_request, reply) =>
      reply.header('cache-control', 'no-store').send({ status: 'ok' }),
    );
    server.get('/metrics', async (_request, reply) => {
      const { contentType, body } = await metricsText();
      return reply.header('content-type', contentType).send(body);
    });
    await server.listen({ port: this.config.HEALTH_PORT, host: this.config.HOST });
    this.server = server;
    const address = server.server.address();
    return typeof address === 'object' && address ? address.port : this.config.HEALTH_PORT;
  }

  /** Last, after the public port: an orchestrator sees the gateway alive until it is gone. */
  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
    this.server = null;
    // The spans still buffered go out before the process ends.
    await stopTracing();
  }
}
