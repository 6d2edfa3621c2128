import { DomainError } from '@custodian/contracts';
import { deliveryWhere } from './delivery-filters';

describe('delivery log filters as SQL', () => {
  it('is the workspace alone without filters', () => {
    expect(deliveryWhere({ workspace: 'wsp_1' })).toEqual({
      sql: 'd.workspace_id = $1',
      parameters: ['wsp_1'],
    });
  });

  it('numbers each given filter in turn, the cursor last', () => {
    expect(
      deliveryWhere({
        workspace: 'wsp_1',
        endpoint: 'whe_1',
        event: 'asset.created',
        status: 'failed',
        from: '2026-01-01T00:00:00Z',
        to: '2026-01-02T00:00:00Z',
        before: { createdAt: '2026-01-01T12:00:00.000001Z', id: 'dlv_9' },
      }),
    ).toEqual({
      sql:
        'd.workspace_id = $1 AND d.endpoint_id = $2 AND d.event = $3 AND d.status = $4' +
        ' AND d.created_at >= $5::timestamptz AND d.created_at <= $6::timestamptz' +
        ' AND (d.created_at, d.id) < ($7::timestamptz, $8::text)',
      parameters: [
        'wsp_1',
        'whe_1',
        'asset.created',
        'failed',
        '2026-01-01T00:00:00Z',
        '2026-01-02T00:00:00Z',
        '2026-01-01T12:00:00.000001Z',
        'dlv_9',
      ],
    });
  });

  it('takes ping as an event, refuses an unknown key by name', () => {
    expect(deliveryWhere({ workspace: 'w', event: 'ping' }).parameters).toEqual(['w', 'ping']);
    expect(() => deliveryWhere({ workspace: 'w', event: 'asset.exploded' })).toThrow(
      new DomainError(
        'invalid_input',
        'event must be an event key (e.g. asset.created) or ping; asset.exploded is neither',
      ),
    );
  });

  it('refuses from later than to', () => {
    expect(() =>
      deliveryWhere({ workspace: 'w', from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }),
    ).toThrow(new DomainError('invalid_input', 'from must not be later than to'));
  });
});
