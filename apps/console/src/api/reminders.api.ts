import type {
  Reminder,
  ReminderChanges,
  ReminderInput,
  ReminderListQuery,
  ReminderPage,
} from '@custodian/console-client';
import { client, send } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listReminders(query: ReminderListQuery): Promise<ReminderPage> {
  return send(
    'see reminders',
    client.GET('/console/api/reminders', { params: { query } }),
    'reminders.view',
  );
}

export function getReminder(id: string): Promise<Reminder> {
  return send(
    'see reminders',
    client.GET('/console/api/reminders/{id}', byId(id)),
    'reminders.view',
  );
}

export function createReminder(input: ReminderInput): Promise<Reminder> {
  return send(
    'add reminders',
    client.POST('/console/api/reminders', { body: input }),
    'reminders.manage',
  );
}

export function updateReminder(id: string, changes: ReminderChanges): Promise<Reminder> {
  return send(
    'change reminders',
    client.PATCH('/console/api/reminders/{id}', { ...byId(id), body: changes }),
    'reminders.manage',
  );
}

export function cancelReminder(id: string): Promise<Reminder> {
  return send(
    'cancel reminders',
    client.DELETE('/console/api/reminders/{id}', byId(id)),
    'reminders.manage',
  );
}
