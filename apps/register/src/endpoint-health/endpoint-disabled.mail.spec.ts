import type { EndpointDisabledNotice } from '@custodian/contracts';
import { endpointDisabledMail } from './endpoint-disabled.mail';

const notice: EndpointDisabledNotice = {
  workspace_id: 'wsp_1',
  endpoint_id: 'whe_1',
  url: 'https://hooks.example.com/in',
  reason: 'auto',
  consecutive_failures: 50,
  failing_since: '2026-01-14T08:00:00.000Z',
  disabled_at: '2026-01-15T09:30:00.000Z',
};

describe('endpointDisabledMail', () => {
  it('names the endpoint, the run of failures and the page that enables it again', () => {
    const mail = endpointDisabledMail(notice, 'ada@acme.example', 'https://custodian.example/');
    expect(mail.to).toBe('ada@acme.example');
    expect(mail.subject).toBe('Webhook endpoint disabled: https://hooks.example.com/in');
    expect(mail.text).toContain('50 deliveries in a row failed since 2026-01-14T08:00:00.000Z');
    expect(mail.text).toContain('https://custodian.example/console/webhooks/whe_1');
  });

  it('leaves out the start of the run when it is unknown', () => {
    const mail = endpointDisabledMail(
      { ...notice, failing_since: null },
      'ada@acme.example',
      'https://custodian.example',
    );
    expect(mail.text).toContain('50 deliveries in a row failed.');
  });
});
