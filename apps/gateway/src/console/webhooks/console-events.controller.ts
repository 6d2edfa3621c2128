import {
  CONSOLE_ONLY_NOTICES,
  CatalogModule,
  EVENT_CATALOG,
  EVENT_KEYS_BY_MODULE,
  eventDataExamples,
} from '@custodian/contracts';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ConsoleAccess } from '../session/console-access';

/**
 * The catalog, by module, as the console's event picker shows it: built once from contracts.
 * The 41 keys are subscribable; the console-only notices (endpoint.disabled) follow in their
 * own module, marked not subscribable.
 */
const CATALOG: CatalogModule[] = [
  ...Object.entries(EVENT_KEYS_BY_MODULE).map(([module, keys]) => ({
    module,
    events: keys.map((key) => ({
      key,
      description: EVENT_CATALOG[key].description,
      example: (eventDataExamples(key)[0] ?? {}) as Record<string, unknown>,
      subscribable: true,
    })),
  })),
  {
    module: 'endpoint',
    events: CONSOLE_ONLY_NOTICES.map((notice) => ({
      key: notice.key,
      description: notice.description,
      example: { ...notice.example },
      subscribable: false,
    })),
  },
];

@ApiTags('Webhooks')
@Controller('console/api/events')
export class ConsoleEventsController {
  @Get()
  @ConsoleAccess('webhooks.view')
  @ApiOperation({
    operationId: 'listEventCatalog',
    summary: 'The event keys an endpoint can subscribe to, by module',
  })
  @ApiOkResponse({ type: [CatalogModule], description: 'OK.' })
  catalog(): CatalogModule[] {
    return CATALOG;
  }
}
