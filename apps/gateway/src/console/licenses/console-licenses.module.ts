import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleRegister } from '../register/console-register';
import { ConsoleSessionModule } from '../session/console-session.module';
import {
  ConsoleLicenseSettingsController,
  ConsoleLicensesController,
} from './console-licenses.controller';

/** Licences and seats, owned by the register. */
@Module({
  imports: [ConsoleSessionModule, AdminModule, RegisterClientModule],
  controllers: [ConsoleLicensesController, ConsoleLicenseSettingsController],
  providers: [ConsoleRegister],
})
export class ConsoleLicensesModule {}
