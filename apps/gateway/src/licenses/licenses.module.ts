import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { LicenseSettingsController } from './license-settings.controller';
import { LicensesController } from './licenses.controller';

/** The public API's licence routes; the register owns the rules and the data. */
@Module({
  imports: [RegisterClientModule],
  controllers: [LicensesController, LicenseSettingsController],
})
export class LicensesModule {}
