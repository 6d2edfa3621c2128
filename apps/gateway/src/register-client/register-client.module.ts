import { Module } from '@nestjs/common';
import { RegisterAdminClient } from './register-admin-client';
import { RegisterClient } from './register-client';
import { UnpagedLists } from './unpaged-lists';

/** The gateway's links to the register: its API queue and its admin queue. */
@Module({
  providers: [RegisterClient, RegisterAdminClient, UnpagedLists],
  exports: [RegisterClient, RegisterAdminClient, UnpagedLists],
})
export class RegisterClientModule {}
