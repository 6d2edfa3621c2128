import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { PeopleController } from './people.controller';

/** The public API's people routes; the register owns the rules and the data. */
@Module({ imports: [RegisterClientModule], controllers: [PeopleController] })
export class PeopleModule {}
