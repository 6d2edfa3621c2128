import type { KeyScope, PingView } from '@custodian/contracts';
import { Controller, Get } from '@nestjs/common';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/api-docs.decorators';

@ApiTags('Keys')
@Controller('ping')
export class PingController {
  @Get()
  // Verifying a key never uses up the month: /ping counts in the minute window only.
  @RequiresScope('read', { countsTowardQuota: false })
  @ApiRoute({
    operationId: 'ping',
    summary: 'Verify a key',
    description: 'The workspace the key belongs to and the scopes it carries.',
    status: 200,
    response: 'Ping',
  })
  ping(@Access() access: AccessRecord): PingView {
    const scopes: KeyScope[] = access.scope === 'write' ? ['read', 'write'] : ['read'];
    return {
      workspace: { id: access.workspaceId, name: access.workspaceName, plan: access.plan },
      key: { id: access.keyId, prefix: access.prefix, scope: access.scope },
      scopes,
    };
  }
}
