import { Module } from '@nestjs/common';
import { RateLimitsModule } from '../limits/rate-limits.module';
import { RegisterClientModule } from '../register-client/register-client.module';
import { InvitationsController } from './invitations.controller';

/** The link of the invitation e-mail: its page and its Accept, throttled per client address. */
@Module({
  imports: [RegisterClientModule, RateLimitsModule],
  controllers: [InvitationsController],
})
export class InvitationsModule {}
