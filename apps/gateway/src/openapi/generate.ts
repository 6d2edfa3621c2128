import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { GatewayAppModule } from '../app.module';
import { setGlobalPrefix } from '../bootstrap';
import { loadGatewayConfig } from '../config/gateway-config';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document';

/**
 * The document of the gateway's code, built without starting anything: Nest's preview mode
 * resolves modules and routes but creates no provider, so no database or broker is needed.
 * The running gateway builds the same document from itself at start-up.
 */
export async function generateOpenApiDocument(): Promise<OpenApiDocument> {
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayAppModule.forConfig(loadGatewayConfig({})),
    new FastifyAdapter(),
    { preview: true, logger: false, abortOnError: false },
  );
  setGlobalPrefix(app);
  const document = buildOpenApiDocument(app);
  await app.close();
  return document;
}
