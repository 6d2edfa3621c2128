import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { NoticeSettingsController } from './notice-settings.controller';

/** The public API's notice settings; the register keeps them and arms the dates. */
@Module({
  imports: [RegisterClientModule],
  controllers: [NoticeSettingsController],
})
export class NoticesModule {}
