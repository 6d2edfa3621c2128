import { eventually } from './http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  text: string;
}

/**
 * A real SMTP server on a free loopback port that keeps what it receives: the register sends
 * its sign-in and invitation e-mails here (SMTP_URL), and tests read the links from them.
 */
export class MailSink {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.mails.push({
            // Addresses compared without case, as the register compares members' e-mails.
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            raw,
            text: decodeBody(raw),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  /** The newest e-mail to `email` whose text matches `pattern`, waited for. */
  latest(email: string, pattern: RegExp): Promise<RegExpExecArray> {
    return eventually(() => {
      for (const mail of [...this.mails].reverse()) {
        const match = mail.to.includes(email.toLowerCase()) ? pattern.exec(mail.text) : null;
        if (match) return Promise.resolve(match);
      }
      throw new Error(`no e-mail to ${email} matching ${pattern} yet`);
    });
  }

  /** How many e-mails went to `email`. */
  countTo(email: string): number {
    return this.mails.filter((mail) => mail.to.includes(email.toLowerCase())).length;
  }
}

/** The body of a received message, quoted-printable or base64 decoded. */
export function decodeBody(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 4);
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    return body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  if (/content-transfer-encoding:\s*base64/i.test(headers)) {
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return body;
}
