import { Module } from '@nestjs/common';
import { CategoriesRpcController } from './categories.rpc-controller';
import { CategoriesService } from './categories.service';

@Module({
  controllers: [CategoriesRpcController],
  providers: [CategoriesService],
  exports: [CategoriesService],
})
export class CategoriesModule {}
