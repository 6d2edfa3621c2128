import type { AssetStatus, BulkAssetInput, BulkAssetReply } from '@custodian/console-client';
import type { PlaceChoice } from '../locations/location-values';

/** The most assets one bulk action takes (the API's limit). */
export const BULK_MAX = 1000;

/** The rows chosen, by id, with their names for the summary; kept across pages. */
export type Selection = ReadonlyMap<string, string>;

interface Row {
  id: string;
  name: string;
}

export function withRow(selection: Selection, row: Row, on: boolean): Selection {
  const next = new Map(selection);
  if (on) next.set(row.id, row.name);
  else next.delete(row.id);
  return next;
}

/** The page's checkbox: all of its rows chosen, or none of them. */
export function withPage(selection: Selection, rows: readonly Row[], on: boolean): Selection {
  const next = new Map(selection);
  for (const row of rows) {
    if (on) next.set(row.id, row.name);
    else next.delete(row.id);
  }
  return next;
}

export function pageState(selection: Selection, rows: readonly Row[]): 'all' | 'some' | 'none' {
  const chosen = rows.filter((row) => selection.has(row.id)).length;
  if (chosen === 0) return 'none';
  return chosen === rows.length ? 'all' : 'some';
}

/** What the bar's dialog asks for, one action at a time. */
export type BulkChoice =
  | { action: 'status'; status: AssetStatus }
  | { action: 'location'; place: PlaceChoice }
  | { action: 'category'; categoryId: string | null }
  | { action: 'check_out'; personId: string; dueAt: string | null }
  | { action: 'check_in' }
  | { action: 'delete' };

export function bulkBody(ids: readonly string[], choice: BulkChoice): BulkAssetInput {
  const base = { ids: [...ids] };
  switch (choice.action) {
    case 'status':
      return { ...base, action: 'update', status: choice.status };
    case 'location':
      // A new place by name (made once, at the top level); else by id, none clearing it.
      return choice.place.newName !== null
        ? { ...base, action: 'update', location: choice.place.newName.trim() }
        : { ...base, action: 'update', location_id: choice.place.id };
    case 'category':
      return { ...base, action: 'update', category_id: choice.categoryId };
    case 'check_out':
      return {
        ...base,
        action: 'check_out',
        person_id: choice.personId,
        ...(choice.dueAt !== null ? { due_at: choice.dueAt } : {}),
      };
    case 'check_in':
      return { ...base, action: 'check_in' };
    case 'delete':
      return { ...base, action: 'delete' };
  }
}

export interface BulkSummary {
  headline: string;
  /** The assets refused or not found, with the reason, by name where the list showed it. */
  problems: Array<{ id: string; name: string; message: string }>;
}

const DONE: Record<BulkAssetReply['action'], string> = {
  update: 'updated',
  check_out: 'checked out',
  check_in: 'checked in',
  delete: 'moved to the bin',
};

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The result in words: "3 moved to the bin, 1 refused", and each refusal's reason. */
export function bulkSummary(reply: BulkAssetReply, names: Selection): BulkSummary {
  const { updated, unchanged, not_found: notFound, refused } = reply.counts;
  const done = DONE[reply.action];
  const parts = [`${plural(updated, 'asset', 'assets')} ${done}`];
  if (unchanged > 0) parts.push(`${unchanged} already so`);
  if (refused > 0) parts.push(`${refused} refused`);
  if (notFound > 0) parts.push(`${notFound} not found`);
  return {
    headline: `${parts.join(', ')}.`,
    problems: reply.results
      .filter((result) => result.outcome === 'refused' || result.outcome === 'not_found')
      .map((result) => ({
        id: result.id,
        name: names.get(result.id) ?? result.id,
        message: result.message ?? result.outcome,
      })),
  };
}
