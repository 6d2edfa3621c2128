import { Ping, type KeyScope, type PingView } from '@custodian/contracts';
import { Controller, Get } from '@nestjs/common';
import type { AccessRecord } from '../access/access-record';
import { Access, RequiresScope } from '../access/requires-scope.decorator';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

@ApiTags('Keys')
@Controller('ping')
export class PingController {
  @Get()
  // Verifying a key never uses up the month: /ping counts in the minute window only.
  @RequiresScope('read', { countsTowardQuota: false })
  @ApiOperation({
    operationId: 'ping',
    summary: 'Verify a key',
    description: 'The workspace the key belongs to and the scopes it carries.',
  })
  @ApiOkResponse({ type: Ping, description: 'OK.' })
  ping(@Access() access: AccessRecord): PingView {
    const scopes: KeyScope[] = access.scope === 'write' ? ['read', 'write'] : ['read'];
    return {
      workspace: { id: access.workspaceId, name: access.workspaceName, plan: access.plan },
      key: { id: access.keyId, prefix: access.prefix, scope: access.scope },
      scopes,
    };
  }
}
