import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { AuditsController } from './audits.controller';

/** The public API's audits routes; the register owns the rules and the data. */
@Module({
  imports: [RegisterClientModule],
  controllers: [AuditsController],
})
export class AuditsModule {}
