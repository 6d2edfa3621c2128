import { Global, Module } from '@nestjs/common';
import { Mailer } from './mailer';

/** One mailer (one SMTP pool) for every feature that e-mails: invitations and sign-in links. */
@Global()
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {}
