import { Module } from '@nestjs/common';
import { PeopleRpcController } from './people.rpc-controller';
import { PeopleService } from './people.service';

/** People; imports/ writes their CSV rows through PeopleService. */
@Module({
  controllers: [PeopleRpcController],
  providers: [PeopleService],
  exports: [PeopleService],
})
export class PeopleModule {}
