import { request } from 'undici';
import { WebhookReceiver } from './receiver';

describe('WebhookReceiver', () => {
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
  });

  afterEach(() => receiver.stop());

  function deliver(delivery: string, envelope: object) {
    return request(receiver.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-custodian-delivery': delivery },
      body: JSON.stringify(envelope),
    }).then(async (response) => {
      await response.body.text();
      return Date.now();
    });
  }

  it('files an assignment event under its asset, with its due date and each receipt’s time', async () => {
    const envelope = {
      id: 'evt_1',
      event: 'assignment.overdue',
      data: { asset: { id: 'ast_1' }, due_at: '2030-01-01T00:00:00.000Z' },
    };
    const before = Date.now();
    await deliver('dlv_1', envelope);
    await deliver('dlv_1', envelope);
    const [event] = receiver.eventsAbout(new Set(['ast_1']));
    expect(event).toMatchObject({ id: 'evt_1', subjectId: 'ast_1', dueAt: Date.UTC(2030, 0, 1) });
    const receipts = event?.deliveries.get('dlv_1') ?? [];
    expect(receipts).toHaveLength(2);
    expect(receipts[0]).toBeGreaterThanOrEqual(before);
    expect(receiver.eventsAbout(new Set(['ast_2']))).toEqual([]);
  });

  it('records a held delivery as received before it answers', async () => {
    receiver.holdMs = 300;
    const answered = deliver('dlv_2', {
      id: 'evt_2',
      event: 'asset.created',
      data: { id: 'ast_2' },
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const [event] = receiver.eventsAbout(new Set(['ast_2']));
    expect(event?.deliveries.get('dlv_2')).toHaveLength(1);
    const receivedAt = event?.deliveries.get('dlv_2')?.[0] ?? 0;
    expect((await answered) - receivedAt).toBeGreaterThanOrEqual(250);
    expect(receiver.held).toBe(1);
  });
});
