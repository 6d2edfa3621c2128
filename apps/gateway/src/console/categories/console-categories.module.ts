import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module';
import { RegisterClientModule } from '../../register-client/register-client.module';
import { ConsoleRegister } from '../register/console-register';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleCategoriesController } from './console-categories.controller';

/** Categories, owned by the register. */
@Module({
  imports: [ConsoleSessionModule, AdminModule, RegisterClientModule],
  controllers: [ConsoleCategoriesController],
  providers: [ConsoleRegister],
})
export class ConsoleCategoriesModule {}
