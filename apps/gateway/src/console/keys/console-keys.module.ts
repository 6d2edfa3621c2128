import { Module } from '@nestjs/common';
import { AdminModule } from '../../admin/admin.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleSignInModule } from '../sign-in/console-sign-in.module';
import { ConsoleKeysController } from './console-keys.controller';

/** The workspace's API keys, through the KeysService the admin CLI uses. */
@Module({
  imports: [ConsoleSessionModule, ConsoleSignInModule, AdminModule],
  controllers: [ConsoleKeysController],
})
export class ConsoleKeysModule {}
