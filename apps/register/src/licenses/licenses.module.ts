import { Module } from '@nestjs/common';
import { LicenseKeyCipher } from './license-key-cipher';
import { LicensesRpcController } from './licenses.rpc-controller';
import { LicensesService } from './licenses.service';

@Module({
  controllers: [LicensesRpcController],
  providers: [LicensesService, LicenseKeyCipher],
})
export class LicensesModule {}
