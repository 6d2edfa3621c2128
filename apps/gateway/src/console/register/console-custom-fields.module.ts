import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleCustomFieldsController } from './console-custom-fields.controller';

/**
 * The assets' custom fields, owned by the register. A module apart from ConsoleRegisterModule
 * only for the order of docs/console-openapi.json, where they come after the activity feed
 * (console.module.ts).
 */
@Module({
  imports: [ConsoleSessionModule, RegisterClientModule],
  controllers: [ConsoleCustomFieldsController],
})
export class ConsoleCustomFieldsModule {}
