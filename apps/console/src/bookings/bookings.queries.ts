// The bookings domain's server state: its query keys, its reads and its writes.
import type {
  Booking,
  BookingChanges,
  BookingInput,
  BookingListQuery,
  BookingSettingsChanges,
} from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { listAssets } from '../api/assets.api';
import {
  cancelBooking,
  checkInBooking,
  checkOutBooking,
  confirmBooking,
  createBooking,
  getBooking,
  getBookingSettings,
  listBookings,
  rejectBooking,
  updateBooking,
  updateBookingSettings,
} from '../api/bookings.api';
import { listPeople } from '../api/people.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const bookingKeys = {
  list: (query: BookingListQuery) => [QUERY_ROOT.bookings, 'list', query] as const,
  detail: (id: string) => [QUERY_ROOT.bookings, 'detail', id] as const,
  settings: () => [QUERY_ROOT.bookings, 'settings'] as const,
  /** The pickers of the form: people and assets by a search (read under their own roots). */
  people: (search: string) => [QUERY_ROOT.people, 'booking-picker', search] as const,
  assets: (search: string) => [QUERY_ROOT.assets, 'booking-picker', search] as const,
};

/** How many the form's pickers offer: the search narrows it. */
export const PICKER_SIZE = 50;

export const bookingQueries = {
  list: (query: BookingListQuery) =>
    queryOptions({ queryKey: bookingKeys.list(query), queryFn: () => listBookings(query) }),
  detail: (id: string) =>
    queryOptions({ queryKey: bookingKeys.detail(id), queryFn: () => getBooking(id) }),
  settings: () =>
    queryOptions({ queryKey: bookingKeys.settings(), queryFn: () => getBookingSettings() }),
  people: (search: string) =>
    queryOptions({
      queryKey: bookingKeys.people(search),
      queryFn: () =>
        listPeople({
          page: 1,
          pageSize: PICKER_SIZE,
          status: 'active',
          ...(search ? { search } : {}),
        }),
    }),
  assets: (search: string) =>
    queryOptions({
      queryKey: bookingKeys.assets(search),
      queryFn: () => listAssets({ page: 1, pageSize: PICKER_SIZE, ...(search ? { search } : {}) }),
    }),
};

/**
 * What a booking's write can change: bookings, the assets it hands out or takes back (their
 * holder and status), the people holding them, and the activity.
 */
const CHANGED_BY_BOOKING_WRITES = [
  QUERY_ROOT.bookings,
  QUERY_ROOT.assets,
  QUERY_ROOT.people,
  QUERY_ROOT.activity,
] as const;

/** A booking's transitions, each one call. */
export type BookingAction =
  | { kind: 'confirm' }
  | { kind: 'reject'; note: string }
  | { kind: 'cancel'; note: string | null }
  | { kind: 'check-out' }
  | { kind: 'check-in'; assetIds: string[] | null }
  | { kind: 'move'; changes: BookingChanges };

function run(id: string, action: BookingAction): Promise<Booking> {
  switch (action.kind) {
    case 'confirm':
      return confirmBooking(id);
    case 'reject':
      return rejectBooking(id, action.note);
    case 'cancel':
      return cancelBooking(id, action.note);
    case 'check-out':
      return checkOutBooking(id);
    case 'check-in':
      return checkInBooking(id, action.assetIds ? { asset_ids: action.assetIds } : {});
    case 'move':
      return updateBooking(id, action.changes);
  }
}

export function useCreateBooking() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: BookingInput): Promise<Booking> => createBooking(input),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_BOOKING_WRITES),
  });
}

export function useBookingAction(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: BookingAction): Promise<Booking> => run(id, action),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_BOOKING_WRITES),
  });
}

export function useSaveBookingSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: BookingSettingsChanges) => updateBookingSettings(changes),
    onSuccess: () => invalidateRoots(client, [QUERY_ROOT.bookings, QUERY_ROOT.activity]),
  });
}
