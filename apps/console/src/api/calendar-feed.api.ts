import type { CalendarFeed, IssuedCalendarFeed } from '@custodian/console-client';
import { client, send } from './client';

export function getCalendarFeed(): Promise<CalendarFeed> {
  return send('see your calendar feed', client.GET('/console/api/calendar-feed'));
}

export function issueCalendarFeed(): Promise<IssuedCalendarFeed> {
  return send('make a calendar feed URL', client.POST('/console/api/calendar-feed'));
}

export function revokeCalendarFeed(): Promise<CalendarFeed> {
  return send('revoke your calendar feed URL', client.DELETE('/console/api/calendar-feed'));
}
