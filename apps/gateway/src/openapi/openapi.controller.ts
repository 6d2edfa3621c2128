import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Controller, Get, Header, Injectable, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../access/public.decorator';
import type { OpenApiDocument } from './openapi-document';

/** The document of this process, built from its own controllers once the app exists. */
@Injectable()
export class OpenApiDocumentStore {
  private json: string | null = null;

  set(document: OpenApiDocument): void {
    this.json = JSON.stringify(document);
  }

  get(): string {
    if (this.json === null) throw new Error('the OpenAPI document was not built at start-up');
    return this.json;
  }
}

@ApiExcludeController()
@Controller()
export class OpenApiController {
  constructor(private readonly store: OpenApiDocumentStore) {}

  @Get('openapi.json')
  @Public()
  @Header('content-type', 'application/json; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  @Header('access-control-allow-origin', '*')
  document(): string {
    return this.store.get();
  }
}

const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

/** The files of swagger-ui-dist the page needs; nothing is fetched from outside. */
// A Map, not an object literal: `/docs/constructor` must not find an inherited key.
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
]);

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Custodian API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// A separate file rather than an inline script, so a strict Content-Security-Policy in front
// of the gateway does not break the page.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  displayOperationId: true,
  defaultModelsExpandDepth: 0,
  tryItOutEnabled: false,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

/**
 * GET /docs: the reference page for humans (Swagger UI over /api/v1/openapi.json), served
 * from swagger-ui-dist inside the gateway so it works without outside network access.
 */
@ApiExcludeController()
@Public()
@Controller('docs')
export class DocsController {
  private readonly files = new Map<string, Buffer>();

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  page(): string {
    return PAGE;
  }

  @Get('init.js')
  @Header('content-type', 'text/javascript; charset=utf-8')
  init(): string {
    return INIT;
  }

  @Get(':file')
  @Header('cache-control', 'public, max-age=86400')
  asset(@Param('file') file: string, @Res({ passthrough: true }) reply: FastifyReply): Buffer {
    const type = ASSETS.get(file);
    if (!type) throw new NotFoundException(`no such file: /docs/${file}`);
    void reply.type(type);
    let content = this.files.get(file);
    if (!content) {
      content = readFileSync(join(SWAGGER_UI_DIR, file));
      this.files.set(file, content);
    }
    return content;
  }
}
