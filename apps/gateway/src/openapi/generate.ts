import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { GatewayAppModule } from '../app.module';
import { setGlobalPrefix } from '../bootstrap';
import { loadGatewayConfig } from '../config/gateway-config';
import { buildConsoleOpenApiDocument } from './console-openapi-document';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi-document';

/**
 * The document of the gateway's code, built without starting anything: Nest's preview mode
 * resolves modules and routes but creates no provider, so no database or broker is needed.
 * The running gateway builds the same document from itself at start-up.
 */
export async function generateOpenApiDocument(): Promise<OpenApiDocument> {
  return (await generateOpenApiDocuments()).api;
}

/** The public API's document and the console API's, from one preview of the app. */
export async function generateOpenApiDocuments(): Promise<{
  api: OpenApiDocument;
  console: OpenApiDocument;
}> {
  const app = await NestFactory.create<NestFastifyApplication>(
    GatewayAppModule.forConfig(loadGatewayConfig({})),
    new FastifyAdapter(),
    { preview: true, logger: false, abortOnError: false },
  );
  setGlobalPrefix(app);
  const documents = { api: buildOpenApiDocument(app), console: buildConsoleOpenApiDocument(app) };
  await app.close();
  return documents;
}
