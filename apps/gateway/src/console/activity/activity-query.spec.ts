import { DomainError, type ActivityEntry } from '@custodian/contracts';
import { activityFilterOf, mergeNewestFirst } from './activity-query';

function entry(id: string): ActivityEntry {
  return {
    id,
    at: '2026-11-26T10:00:00.000Z',
    source: 'api',
    actor: { type: 'key', id: 'key_1', name: 'Zapier' },
    record_type: 'asset',
    record_id: 'ast_1',
    record_name: 'Laptop',
    action: 'updated',
    related_id: null,
    related_name: null,
    changes: [],
  };
}

function refusal(query: Record<string, string | string[]>): string {
  try {
    activityFilterOf(query);
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
  throw new Error('accepted');
}

describe('activityFilterOf', () => {
  it('takes every filter, with 50 entries when no limit is given', () => {
    expect(
      activityFilterOf({
        record_type: 'asset',
        record_id: 'ast_1',
        source: 'console',
        actor_id: 'usr_1',
        action: 'deleted',
        before: 'act_01',
      }),
    ).toEqual({
      record_type: 'asset',
      record_id: 'ast_1',
      source: 'console',
      actor_id: 'usr_1',
      action: 'deleted',
      before: 'act_01',
      limit: 50,
    });
    expect(activityFilterOf({ record_type: '', limit: '100' })).toEqual({ limit: 100 });
  });

  it('refuses bad values naming the parameter', () => {
    expect(refusal({ limit: '0' })).toBe('limit must be a whole number from 1 to 100');
    expect(refusal({ limit: '1.5' })).toBe('limit must be a whole number from 1 to 100');
    expect(refusal({ source: 'robot' })).toBe('source must be one of console, api, cli, system');
    expect(refusal({ record_type: 'desk' })).toMatch(/^record_type must be one of asset, /);
    expect(refusal({ before: 'ast_1' })).toBe('before must be the id of an activity entry');
    expect(refusal({ record_id: ['a', 'b'] })).toBe('record_id must be given once');
    expect(refusal({ record_id: 'x'.repeat(65) })).toBe('record_id must be at most 64 characters');
    expect(refusal({ sort: 'asc' })).toMatch(/^unknown query parameter sort; known: record_type/);
  });
});

describe('mergeNewestFirst', () => {
  it('interleaves the apps by id and points at the last entry shown when more are left', () => {
    const page = mergeNewestFirst(
      [[entry('act_09'), entry('act_05')], [entry('act_08'), entry('act_02')], [entry('act_07')]],
      3,
    );
    expect(page.data.map((each) => each.id)).toEqual(['act_09', 'act_08', 'act_07']);
    expect(page.next).toBe('act_07');
  });

  it('has no next page when every app is exhausted', () => {
    const page = mergeNewestFirst([[entry('act_03')], [], [entry('act_04')]], 3);
    expect(page.data.map((each) => each.id)).toEqual(['act_04', 'act_03']);
    expect(page.next).toBeNull();
  });
});
