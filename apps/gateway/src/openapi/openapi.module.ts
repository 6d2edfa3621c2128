import { Module } from '@nestjs/common';
import { DocsController, OpenApiController, OpenApiDocumentStore } from './openapi.controller';

/** The published contract: /api/v1/openapi.json and the /docs page. */
@Module({
  controllers: [OpenApiController, DocsController],
  providers: [OpenApiDocumentStore],
  exports: [OpenApiDocumentStore],
})
export class OpenApiModule {}
