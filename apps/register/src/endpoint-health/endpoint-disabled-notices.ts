import type { EndpointDisabledNotice } from '@custodian/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RegisterConfig } from '../config/register-config';
import { Mailer } from '../mail/mailer';
import { endpointDisabledMail } from './endpoint-disabled.mail';

/** Who hears of a disabled endpoint: the roles that manage webhooks (session permissions). */
const NOTIFIED_ROLES = ['owner', 'admin'];

/**
 * E-mails a workspace's active owners and admins that the worker disabled one of its webhook
 * endpoints: once per notice. The notice's message id is recorded in the transaction that
 * reads the recipients, and a message id seen before sends nothing, so a redelivery (a crash
 * between commit and ack, a second consumer) never sends twice. The mail goes after the commit:
 * a crash between the two loses it rather than risk sending it twice (the console's banner
 * still shows the endpoint).
 */
@Injectable()
export class EndpointDisabledNotices {
  private readonly logger = new Logger('EndpointDisabledNotices');

  constructor(
    private readonly db: DataSource,
    private readonly mailer: Mailer,
    private readonly config: RegisterConfig,
  ) {}

  /** The addresses e-mailed, or null for a message id already handled. */
  async receive(messageId: string, notice: EndpointDisabledNotice): Promise<string[] | null> {
    const recipients = await this.db.transaction(async (tx) => {
      const members = await tx.query<Array<{ email: string }>>(
        `SELECT email FROM register.members
         WHERE workspace_id = $1 AND status = 'active' AND role = ANY($2::text[])
         ORDER BY created_at, id`,
        [notice.workspace_id, NOTIFIED_ROLES],
      );
      // Waits for a concurrent insert of the same id, then does nothing: one sender wins.
      const recorded = await tx.query<unknown[]>(
        `INSERT INTO register.endpoint_disabled_notices
           (message_id, workspace_id, endpoint_id, url, disabled_at, recipients)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (message_id) DO NOTHING
         RETURNING message_id`,
        [
          messageId,
          notice.workspace_id,
          notice.endpoint_id,
          notice.url,
          notice.disabled_at,
          members.length,
        ],
      );
      return recorded.length === 0 ? null : members.map((member) => member.email);
    });
    if (recipients === null) {
      this.logger.log(`endpoint-disabled notice ${messageId} was handled before; nothing sent`);
      return null;
    }
    if (recipients.length === 0) {
      this.logger.warn(
        `webhook endpoint ${notice.endpoint_id} of ${notice.workspace_id} disabled; ` +
          'the workspace has no active owner or admin to e-mail',
      );
    }
    for (const to of recipients) {
      this.mailer.send(endpointDisabledMail(notice, to, this.config.PUBLIC_BASE_URL));
    }
    return recipients;
  }
}
