import type { ActivityEntry } from '@custodian/console-client';
import {
  actorText,
  changeText,
  nounOf,
  recordLink,
  relatedLink,
  relatedWord,
  verbOf,
} from './activity-text';

function entry(overrides: Partial<ActivityEntry>): ActivityEntry {
  return {
    id: 'act_1',
    at: '2026-11-26T10:00:00.000Z',
    source: 'console',
    actor: { type: 'member', id: 'usr_1', name: 'ana@example.com' },
    record_type: 'asset',
    record_id: 'ast_1',
    record_name: 'Laptop',
    action: 'updated',
    related_id: null,
    related_name: null,
    changes: [],
    ...overrides,
  };
}

describe('activity text', () => {
  it('names the actor: a member by e-mail, a key by name, the CLI and the system', () => {
    expect(actorText(entry({}))).toBe('ana@example.com');
    expect(actorText(entry({ actor: { type: 'key', id: 'key_1', name: 'Zapier' } }))).toBe(
      'API key Zapier',
    );
    const system = { type: 'system' as const, id: null, name: null };
    expect(actorText(entry({ actor: system, source: 'cli' }))).toBe('Admin CLI');
    expect(actorText(entry({ actor: system, source: 'system' }))).toBe('System');
  });

  it('reads actions as verbs, and an unknown one as its words', () => {
    expect(verbOf(entry({ action: 'checked_out' }))).toBe('checked out');
    expect(verbOf(entry({ action: 'made_coffee' }))).toBe('made coffee');
  });

  it('reads every transition of a booking, and links to its page', () => {
    const booking = (action: string) =>
      entry({ record_type: 'booking', record_id: 'bkg_1', record_name: 'Camera for Ada', action });
    expect(
      [
        'created',
        'confirmed',
        'rejected',
        'updated',
        'cancelled',
        'checked_out',
        'completed',
        'overdue',
        'no_show',
      ].map((action) => verbOf(booking(action))),
    ).toEqual([
      'created',
      'confirmed',
      'rejected',
      'changed',
      'cancelled',
      'checked out',
      'completed',
      'marked overdue',
      'marked as not picked up',
    ]);
    expect(nounOf(booking('created'))).toBe('booking');
    expect(recordLink(booking('cancelled'))).toBe('/bookings/bkg_1');
    // "ana checked out booking Camera for Ada", never "to Ada" as an asset is.
    expect(relatedWord(booking('checked_out'))).toBe(' for ');
    expect(relatedWord(booking('overdue'))).toBe(' for ');
    expect(relatedWord({ action: 'due', record_type: 'reminder' })).toBe(' about ');
    expect(relatedWord(entry({ action: 'checked_out' }))).toBe(' to ');
    expect(relatedWord(entry({ action: 'checked_in' }))).toBe(' from ');
  });

  it('tells an audit and the assets its completion changed', () => {
    const audit = entry({ record_type: 'audit', record_id: 'aud_1', action: 'started' });
    expect([verbOf(audit), nounOf(audit), recordLink(audit)]).toEqual([
      'started',
      'audit',
      '/audits/aud_1',
    ]);
    // "changed asset Laptop, by audit Q4": the audit is the related record.
    const moved = entry({ action: 'updated', related_id: 'aud_1', related_name: 'Q4' });
    expect(relatedWord(moved)).toBe(', by audit ');
    expect(relatedLink(moved)).toBe('/audits/aud_1');
  });

  it('tells the records a CSV import wrote, linking to the import', () => {
    const imported = entry({
      record_type: 'person',
      record_id: 'per_1',
      action: 'created',
      related_id: 'imp_1',
      related_name: 'people.csv',
    });
    expect(relatedWord(imported)).toBe(', by import ');
    expect(relatedLink(imported)).toBe('/imports/imp_1');
  });

  it('links to the record unless it is gone', () => {
    expect(recordLink(entry({}))).toBe('/assets/ast_1');
    expect(recordLink(entry({ action: 'deleted' }))).toBeNull();
    expect(recordLink(entry({ record_type: 'person', record_id: 'per_1' }))).toBe('/people/per_1');
    expect(recordLink(entry({ record_type: 'member', action: 'removed' }))).toBeNull();
  });

  it('writes a change as old → new, a first value alone', () => {
    expect(changeText({ field: 'name', from: 'Desk', to: 'Standing desk' })).toBe(
      'name: Desk → Standing desk',
    );
    expect(changeText({ field: 'brand', from: null, to: 'Apple' })).toBe('brand: Apple');
    expect(changeText({ field: 'location', from: 'Berlin', to: null })).toBe(
      'location: Berlin → none',
    );
    const due = { field: 'due_at', from: null, to: '2031-06-30T17:00:00.000Z' };
    expect(changeText(due, (iso) => `<${iso.slice(0, 10)}>`)).toBe('due_at: <2031-06-30>');
  });
});

describe('licences and requests in the feed', () => {
  const of = (record_type: 'license' | 'request', action: string) =>
    entry({ record_type, record_id: `${record_type}_1`, action });

  it('links a licence and a request to their pages, a deleted licence nowhere', () => {
    expect(recordLink(of('license', 'expiring'))).toBe('/licenses/license_1');
    expect(recordLink(of('license', 'deleted'))).toBeNull();
    expect(recordLink(of('request', 'approved'))).toBe('/requests/request_1');
  });

  it('says what the system did at a licence’s dates', () => {
    expect(verbOf(of('license', 'expiring'))).toBe('noted the coming end of');
    expect(verbOf(of('license', 'expired'))).toBe('noted the end of');
    expect(nounOf(of('request', 'created'))).toBe('asset request');
  });
});

describe('maintenance in the feed', () => {
  const record = (action: string) =>
    entry({
      record_type: 'maintenance',
      record_id: 'mnt_1',
      record_name: 'Battery replacement',
      action,
      related_id: 'ast_9',
      related_name: 'Laptop',
    });

  it('reads "resolved maintenance record Battery replacement on Laptop", linked to the asset', () => {
    expect(verbOf(record('resolved'))).toBe('resolved');
    expect(nounOf(record('created'))).toBe('maintenance record');
    expect(relatedWord(record('created'))).toBe(' on ');
    expect(recordLink(record('updated'))).toBe('/assets/ast_9');
    expect(relatedLink(record('resolved'))).toBe('/assets/ast_9');
    expect(relatedLink(entry({ related_id: 'per_1' }))).toBe('/people/per_1');
    expect(relatedLink(entry({ record_type: 'reminder', related_id: 'lic_1' }))).toBe(
      '/licenses/lic_1',
    );
  });
});
