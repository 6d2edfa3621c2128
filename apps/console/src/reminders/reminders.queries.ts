// The reminders domain's server state: its query keys, its reads and its writes.
import type {
  Reminder,
  ReminderChanges,
  ReminderInput,
  ReminderListQuery,
} from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  cancelReminder,
  createReminder,
  getReminder,
  listReminders,
  updateReminder,
} from '../api/reminders.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const reminderKeys = {
  list: (query: ReminderListQuery) => [QUERY_ROOT.reminders, 'list', query] as const,
  detail: (id: string) => [QUERY_ROOT.reminders, 'detail', id] as const,
};

export const reminderQueries = {
  list: (query: ReminderListQuery) =>
    queryOptions({ queryKey: reminderKeys.list(query), queryFn: () => listReminders(query) }),
  detail: (id: string) =>
    queryOptions({ queryKey: reminderKeys.detail(id), queryFn: () => getReminder(id) }),
};

const CHANGED_BY_REMINDER_WRITES = [QUERY_ROOT.reminders, QUERY_ROOT.activity] as const;

export type ReminderSave =
  { id: null; input: ReminderInput } | { id: string; changes: ReminderChanges };

export function useSaveReminder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: ReminderSave): Promise<Reminder> =>
      save.id === null ? createReminder(save.input) : updateReminder(save.id, save.changes),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_REMINDER_WRITES),
  });
}

export function useCancelReminder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<Reminder> => cancelReminder(id),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_REMINDER_WRITES),
  });
}
