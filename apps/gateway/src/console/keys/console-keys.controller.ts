import { ConsoleKey, CreateConsoleKeyBody, CreatedConsoleKey } from '@custodian/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { KeysService } from '../../keys/keys.service';
import { ApiErrors } from '../../http/api-docs.decorators';
import { Caller, ConsoleAccess, WithoutIdempotencyKey } from '../session/console-access';
import { RecentSignIn } from '../sign-in/recent-sign-in';
import type { ConsoleCaller } from '../session/console-request';

/**
 * API keys of the session's workspace. The same KeysService as the admin CLI makes them, so
 * a key from either is the same kind of key; the console adds who made it.
 */
@ApiTags('API keys')
@Controller('console/api/keys')
export class ConsoleKeysController {
  constructor(private readonly keys: KeysService) {}

  @Get()
  @ConsoleAccess('keys.view')
  @ApiOperation({ operationId: 'listKeys', summary: 'API keys of the workspace' })
  @ApiOkResponse({ type: [ConsoleKey], description: 'OK, oldest first, revoked ones included.' })
  list(@Caller() caller: ConsoleCaller): Promise<ConsoleKey[]> {
    return this.keys.listWithUse(caller.workspaceId);
  }

  @Post()
  @RecentSignIn()
  @ConsoleAccess('keys.manage')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createKey',
    summary: 'Create an API key',
    description: 'The key itself is in this answer only: it is stored as a hash.',
  })
  @ApiCreatedResponse({ type: CreatedConsoleKey, description: 'Created.' })
  @ApiErrors(409)
  async create(
    @Body() body: CreateConsoleKeyBody,
    @Caller() caller: ConsoleCaller,
  ): Promise<CreatedConsoleKey> {
    const created = await this.keys.create(
      { workspace: caller.workspaceId, scope: body.scope, name: body.name.trim() },
      { id: caller.memberId, email: caller.email },
      caller.identity,
    );
    return { ...(await this.keys.getWithUse(caller.workspaceId, created.id)), key: created.key };
  }

  @WithoutIdempotencyKey('revoking twice is harmless')
  @Delete(':id')
  @ConsoleAccess('keys.manage')
  @ApiOperation({
    operationId: 'revokeKey',
    summary: 'Revoke an API key',
    description: 'The next request with the key is refused (401). Revoking twice is harmless.',
  })
  @ApiOkResponse({ type: ConsoleKey, description: 'Revoked.' })
  @ApiErrors(404)
  async revoke(@Param('id') id: string, @Caller() caller: ConsoleCaller): Promise<ConsoleKey> {
    await this.keys.revoke({ id }, caller.workspaceId, {
      id: caller.memberId,
      email: caller.email,
    });
    return this.keys.getWithUse(caller.workspaceId, id);
  }
}
