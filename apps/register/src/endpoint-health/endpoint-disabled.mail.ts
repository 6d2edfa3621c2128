import type { EndpointDisabledNotice } from '@custodian/contracts';
import type { MailMessage } from '../mail/mailer';

/**
 * The e-mail an owner or admin gets when the worker disabled one of the workspace's webhook
 * endpoints: which one, why, and where to enable it again (the endpoint's page in the console,
 * whose Test ping, once delivered, enables it too).
 */
export function endpointDisabledMail(
  notice: EndpointDisabledNotice,
  to: string,
  publicBaseUrl: string,
): MailMessage {
  const page = `${publicBaseUrl.replace(/\/+$/, '')}/console/webhooks/${notice.endpoint_id}`;
  const since = notice.failing_since ? ` since ${notice.failing_since}` : '';
  return {
    to,
    subject: `Webhook endpoint disabled: ${notice.url}`,
    text: [
      `Custodian disabled the webhook endpoint ${notice.url} (${notice.endpoint_id}) at ` +
        `${notice.disabled_at}: ${notice.consecutive_failures} deliveries in a row failed${since}.`,
      '',
      'Its deliveries are kept and wait; none are sent until the endpoint is enabled again.',
      'Fix the receiver, then enable the endpoint or send a Test ping from its page:',
      page,
      '',
      'You get this e-mail as an owner or admin of the workspace.',
    ].join('\n'),
  };
}
