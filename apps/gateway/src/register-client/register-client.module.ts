import { Module } from '@nestjs/common';
import { RegisterAdminClient } from './register-admin-client';
import { RegisterClient } from './register-client';

/** The gateway's links to the register: its API queue and its admin queue. */
@Module({
  providers: [RegisterClient, RegisterAdminClient],
  exports: [RegisterClient, RegisterAdminClient],
})
export class RegisterClientModule {}
