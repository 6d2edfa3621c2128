import { applyDecorators, SetMetadata } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';

/** Marks a route that needs no API key (health, the OpenAPI document); lint checks for it. */
export const Public = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata('custodian:public', true), RouteConfig({ public: true }));
