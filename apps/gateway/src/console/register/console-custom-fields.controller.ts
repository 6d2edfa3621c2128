import { ConsoleCustomField, RegisterAdminRpc } from '@custodian/contracts';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RegisterAdminClient } from '../../register-client/register-admin-client';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';

/** The workspace's custom fields, which the asset form asks for (defined with the admin CLI). */
@ApiTags('Assets')
@Controller('console/api/custom-fields')
export class ConsoleCustomFieldsController {
  constructor(private readonly admin: RegisterAdminClient) {}

  @Get()
  @ConsoleAccess('assets.view')
  @ApiOperation({ operationId: 'listCustomFields', summary: "The assets' custom fields" })
  @ApiOkResponse({ type: [ConsoleCustomField], description: 'OK, oldest first.' })
  async list(@Caller() caller: ConsoleCaller): Promise<ConsoleCustomField[]> {
    const fields = await this.admin.call(RegisterAdminRpc.customFieldList, {
      workspace: caller.workspaceId,
    });
    return fields.map(({ key, label, type, options, required }) => ({
      key,
      label,
      type,
      options,
      required,
    }));
  }
}
