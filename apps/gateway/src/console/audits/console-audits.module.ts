import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleRegister } from '../register/console-register';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleAuditsController } from './console-audits.controller';

/** Audits (stock-takes), owned by the register. */
@Module({
  imports: [ConsoleSessionModule, AdminModule, RegisterClientModule],
  controllers: [ConsoleAuditsController],
  providers: [ConsoleRegister],
})
export class ConsoleAuditsModule {}
