import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../access/public.decorator';
import { GatewayHealth } from './gateway-health';

/** /health on the public port, for load balancers that only reach that one. */
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: GatewayHealth) {}

  @Get()
  async check(@Res({ passthrough: true }) reply: FastifyReply) {
    const { httpStatus, body } = await this.health.report();
    void reply.status(httpStatus);
    return body;
  }
}
