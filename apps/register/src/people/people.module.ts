import { Module } from '@nestjs/common';
import { PeopleRpcController } from './people.rpc-controller';
import { PeopleService } from './people.service';

@Module({ controllers: [PeopleRpcController], providers: [PeopleService] })
export class PeopleModule {}
