import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleRegister } from '../register/console-register';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleImportsController } from './console-imports.controller';

/** CSV imports of assets and people, owned by the register. */
@Module({
  imports: [ConsoleSessionModule, AdminModule, RegisterClientModule],
  controllers: [ConsoleImportsController],
  providers: [ConsoleRegister],
})
export class ConsoleImportsModule {}
