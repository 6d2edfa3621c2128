import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { RegisterConfig } from '../config/register-config';
import { relaxedDefaults } from '@custodian/config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Every send gives up after these, so a dead SMTP server never piles up sockets. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * Outgoing e-mail. With `SMTP_URL` it goes to that server; without it (development, the
 * default of `npm start`) the message is logged, so the invitation link can be copied from
 * the register's log. Sends run in the background: a caller never waits on SMTP, and a
 * failure is logged, never thrown (whatever the mail was about is already committed).
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = new Logger('Mailer');
  private readonly transport: Transporter | null;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly config: RegisterConfig) {
    this.transport = config.SMTP_URL
      ? createTransport({ url: config.SMTP_URL, ...SMTP_TIMEOUTS })
      : null;
  }

  /** Starts sending `message` and returns at once; `settled` resolves when it is done. */
  send(message: MailMessage): { settled: Promise<void> } {
    const settled = this.deliver(message);
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
    return { settled };
  }

  private async deliver(message: MailMessage): Promise<void> {
    if (!this.transport) {
      // The body holds the invitation link, a credential: printed for a developer running
      // `npm start` (or a test), never elsewhere, where a missing SMTP_URL is a configuration
      // error.
      if (!relaxedDefaults()) {
        this.logger.error(
          `SMTP_URL is not set; e-mail "${message.subject}" to ${message.to} not sent`,
        );
      } else {
        this.logger.log(
          { to: message.to, subject: message.subject, text: message.text },
          `SMTP_URL is not set; e-mail to ${message.to} not sent:\n${message.text}`,
        );
      }
      return;
    }
    try {
      await this.transport.sendMail({ from: this.config.MAIL_FROM, ...message });
      this.logger.log(`e-mail "${message.subject}" sent to ${message.to}`);
    } catch (error) {
      this.logger.error(
        { err: error, to: message.to, subject: message.subject },
        `e-mail "${message.subject}" to ${message.to} failed: ${(error as Error).message}`,
      );
    }
  }

  /** Lets sends in flight finish (bounded), then closes the SMTP connections. */
  async onApplicationShutdown(): Promise<void> {
    if (this.pending.size > 0) {
      await Promise.race([
        Promise.allSettled([...this.pending]),
        new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
      ]);
    }
    this.transport?.close();
  }
}
