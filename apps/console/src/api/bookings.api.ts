import type {
  AssetAvailability,
  Booking,
  BookingChanges,
  BookingCheckIn,
  BookingInput,
  BookingListQuery,
  BookingPage,
  BookingSettings,
  BookingSettingsChanges,
} from '@custodian/console-client';
import { client, send } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listBookings(query: BookingListQuery): Promise<BookingPage> {
  return send(
    'see bookings',
    client.GET('/console/api/bookings', { params: { query } }),
    'bookings.view',
  );
}

export function getBooking(id: string): Promise<Booking> {
  return send('see bookings', client.GET('/console/api/bookings/{id}', byId(id)), 'bookings.view');
}

export function createBooking(input: BookingInput): Promise<Booking> {
  return send(
    'book assets',
    client.POST('/console/api/bookings', { body: input }),
    'bookings.request',
  );
}

export function updateBooking(id: string, changes: BookingChanges): Promise<Booking> {
  return send(
    'book assets',
    client.PATCH('/console/api/bookings/{id}', { ...byId(id), body: changes }),
    'bookings.request',
  );
}

export function confirmBooking(id: string): Promise<Booking> {
  return send(
    'confirm bookings',
    client.POST('/console/api/bookings/{id}/confirm', byId(id)),
    'bookings.manage',
  );
}

export function rejectBooking(id: string, note: string): Promise<Booking> {
  return send(
    'reject bookings',
    client.POST('/console/api/bookings/{id}/reject', { ...byId(id), body: { note } }),
    'bookings.manage',
  );
}

export function cancelBooking(id: string, note: string | null): Promise<Booking> {
  return send(
    'cancel bookings',
    client.POST('/console/api/bookings/{id}/cancel', { ...byId(id), body: { note } }),
    'bookings.request',
  );
}

export function checkOutBooking(id: string): Promise<Booking> {
  return send(
    'hand out bookings',
    client.POST('/console/api/bookings/{id}/check-out', byId(id)),
    'bookings.manage',
  );
}

export function checkInBooking(id: string, body: BookingCheckIn): Promise<Booking> {
  return send(
    'take back bookings',
    client.POST('/console/api/bookings/{id}/check-in', { ...byId(id), body }),
    'bookings.manage',
  );
}

export function getAvailability(id: string, from: string, to: string): Promise<AssetAvailability> {
  return send(
    'see bookings',
    client.GET('/console/api/assets/{id}/availability', {
      params: { path: { id }, query: { from, to } },
    }),
    'bookings.view',
  );
}

export function getBookingSettings(): Promise<BookingSettings> {
  return send('see bookings', client.GET('/console/api/settings/bookings'), 'bookings.view');
}

export function updateBookingSettings(changes: BookingSettingsChanges): Promise<BookingSettings> {
  return send(
    'change the booking settings',
    client.PATCH('/console/api/settings/bookings', { body: changes }),
    'bookings.manage',
  );
}
