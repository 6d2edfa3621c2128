import { PlanUsage } from '@custodian/contracts';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Caller, ConsoleAccess } from '../session/console-access';
import type { ConsoleCaller } from '../session/console-request';
import { WorkspaceUsage } from './workspace-usage';

@ApiTags('Plan and usage')
@Controller('console/api/usage')
export class ConsoleUsageController {
  constructor(private readonly usage: WorkspaceUsage) {}

  @Get()
  @ConsoleAccess('workspace.view')
  @ApiOperation({
    operationId: 'getUsage',
    summary: 'The plan, its limits and what is used',
    description:
      'The effective limits (plan and overrides; null is unlimited) with what is used of each: ' +
      "assets, people and seats as the register counts them, and the keys' requests this " +
      'month and in the current minute window as the rate limiting counts them. `notices` ' +
      `lists the limits reached or nearly reached. The keys themselves are listed only for ` +
      'roles that may see API keys.',
  })
  @ApiOkResponse({ type: PlanUsage, description: 'OK.' })
  read(@Caller() caller: ConsoleCaller): Promise<PlanUsage> {
    return this.usage.read(caller);
  }
}
