import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { MembersController } from './members.controller';

/** The public API's members routes; the register owns the rules and the data. */
@Module({ imports: [RegisterClientModule], controllers: [MembersController] })
export class MembersModule {}
