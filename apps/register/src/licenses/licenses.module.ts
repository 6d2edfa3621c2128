import { Module } from '@nestjs/common';
import { DueDatesModule } from '../due-dates/due-dates.module';
import { LicenseExpiryDueDates } from './license-expiry';
import { LicenseKeyCipher } from './license-key-cipher';
import { LicenseSettingsService } from './license-settings';
import { LicensesRpcController } from './licenses.rpc-controller';
import { LicensesService } from './licenses.service';

@Module({
  imports: [DueDatesModule],
  controllers: [LicensesRpcController],
  providers: [LicensesService, LicenseKeyCipher, LicenseExpiryDueDates, LicenseSettingsService],
})
export class LicensesModule {}
