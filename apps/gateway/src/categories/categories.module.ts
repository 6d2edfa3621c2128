import { Module } from '@nestjs/common';
import { RegisterClientModule } from '../register-client/register-client.module';
import { CategoriesController } from './categories.controller';

/** The public API's categories routes; the register owns the rules and the data. */
@Module({
  imports: [RegisterClientModule],
  controllers: [CategoriesController],
})
export class CategoriesModule {}
