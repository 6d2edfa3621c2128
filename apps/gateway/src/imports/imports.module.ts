import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { ImportsController } from './imports.controller';

/** The public API's CSV imports (POST /api/v1/imports and its reads). */
@Module({ imports: [RegisterClientModule], controllers: [ImportsController] })
export class ImportsModule {}
