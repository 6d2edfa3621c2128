import type { paths } from './schema';

export type { components, operations, paths } from './schema';

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';

/** The JSON body of one response of one operation, read from `paths` (not from a schema name). */
export type JsonResponse<
  P extends keyof paths,
  M extends Method & keyof paths[P],
  S extends number,
> = paths[P][M] extends { responses: infer R }
  ? S extends keyof R
    ? R[S] extends { content: { 'application/json': infer T } }
      ? T
      : never
    : never
  : never;

/** The JSON request body of one operation. */
export type JsonBody<
  P extends keyof paths,
  M extends Method & keyof paths[P],
> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer T } };
}
  ? T
  : never;

// The console's own names for the shapes it shows, each tied to the route that returns it, so
// that a regenerated schema.d.ts that changes a route's answer breaks the code that reads it.
export type Session = JsonResponse<'/console/api/session', 'get', 200>;
export type Permission = Session['permissions'][number];
export type Role = Session['memberships'][number]['role'];
export type Membership = Session['memberships'][number];
export type SessionListItem = JsonResponse<'/console/api/sessions', 'get', 200>[number];
export type SessionsEnded = JsonResponse<'/console/api/sessions/sign-out-others', 'post', 200>;
export type CalendarFeed = JsonResponse<'/console/api/calendar-feed', 'get', 200>;
export type IssuedCalendarFeed = JsonResponse<'/console/api/calendar-feed', 'post', 201>;
export type ApiError = JsonResponse<'/console/api/keys', 'get', 401>;
export type ConsoleKey = JsonResponse<'/console/api/keys', 'get', 200>[number];
export type CreatedConsoleKey = JsonResponse<'/console/api/keys', 'post', 201>;
export type KeyScope = ConsoleKey['scope'];
export type EventModule = JsonResponse<'/console/api/events', 'get', 200>[number];
export type EventKey = EventModule['events'][number];
export type Endpoint = JsonResponse<'/console/api/webhooks/{id}', 'get', 200>;
export type CreatedEndpoint = JsonResponse<'/console/api/webhooks', 'post', 201>;
export type EndpointInput = JsonBody<'/console/api/webhooks', 'post'>;
export type EndpointChanges = JsonBody<'/console/api/webhooks/{id}', 'patch'>;
export type WebhookSecret = JsonResponse<'/console/api/webhooks/{id}/secret/reveal', 'post', 200>;
export type TestDelivery = JsonResponse<'/console/api/webhooks/{id}/test', 'post', 202>;
export type DeliveryPage = JsonResponse<'/console/api/deliveries', 'get', 200>;
export type DeliverySummary = DeliveryPage['data'][number];
export type DeliveryStatus = DeliverySummary['status'];
export type DeliveryDetail = JsonResponse<'/console/api/deliveries/{id}', 'get', 200>;
export type Attempt = DeliveryDetail['attempt_log'][number];
export type DeliveryFilters = NonNullable<
  NonNullable<paths['/console/api/deliveries']['get']['parameters']['query']>
>;
export type ResendFilters = JsonBody<'/console/api/deliveries/resend', 'post'>;
export type AssetPage = JsonResponse<'/console/api/assets', 'get', 200>;
export type AssetSummary = AssetPage['data'][number];
export type AssetListQuery = NonNullable<
  paths['/console/api/assets']['get']['parameters']['query']
>;
export type Asset = JsonResponse<'/console/api/assets/{id}', 'get', 200>;
export type AssetStatus = Asset['status'];
export type AssetCondition = NonNullable<Asset['condition']>;
export type AssetInput = JsonBody<'/console/api/assets', 'post'>;
export type AssetChanges = JsonBody<'/console/api/assets/{id}', 'patch'>;
export type DeletedAsset = JsonResponse<'/console/api/assets/deleted', 'get', 200>[number];
export type ScannedAsset = JsonResponse<'/console/api/assets/scan', 'post', 200>;
/** One change to many assets (the list's bulk actions) and its answer, a result per id. */
export type BulkAssetInput = JsonBody<'/console/api/assets/bulk', 'post'>;
export type BulkAssetReply = JsonResponse<'/console/api/assets/bulk', 'post', 200>;
export type BulkAssetResult = BulkAssetReply['results'][number];
export type PersonPage = JsonResponse<'/console/api/people', 'get', 200>;
export type PersonSummary = PersonPage['data'][number];
export type PersonListQuery = NonNullable<
  paths['/console/api/people']['get']['parameters']['query']
>;
export type Person = JsonResponse<'/console/api/people/{id}', 'get', 200>;
export type PersonStatus = Person['status'];
export type PersonInput = JsonBody<'/console/api/people', 'post'>;
export type PersonChanges = JsonBody<'/console/api/people/{id}', 'patch'>;
export type Member = JsonResponse<'/console/api/members', 'get', 200>[number];
export type MemberInvitation = JsonBody<'/console/api/members', 'post'>;
export type MemberRoleChange = JsonBody<'/console/api/members/{id}', 'patch'>;
export type ActivityPage = JsonResponse<'/console/api/activity', 'get', 200>;
export type ActivityEntry = ActivityPage['data'][number];
export type ActivityQuery = NonNullable<
  paths['/console/api/activity']['get']['parameters']['query']
>;
export type PlanUsage = JsonResponse<'/console/api/usage', 'get', 200>;
export type UsageMeter = PlanUsage['meters'][number];
export type UsageNotice = PlanUsage['notices'][number];
export type KeyUsage = PlanUsage['keys'][number];
export type CustomField = JsonResponse<'/console/api/custom-fields', 'get', 200>[number];
export type AssetRequestPage = JsonResponse<'/console/api/requests', 'get', 200>;
export type AssetRequest = AssetRequestPage['data'][number];
export type AssetRequestStatus = AssetRequest['status'];
export type AssetRequestListQuery = NonNullable<
  paths['/console/api/requests']['get']['parameters']['query']
>;
export type AssetRequestInput = JsonBody<'/console/api/requests', 'post'>;
export type AssetRequestApproval = JsonBody<'/console/api/requests/{id}/approve', 'post'>;
export type AssetRequestRejection = JsonBody<'/console/api/requests/{id}/reject', 'post'>;
export type BookingPage = JsonResponse<'/console/api/bookings', 'get', 200>;
export type Booking = JsonResponse<'/console/api/bookings/{id}', 'get', 200>;
export type BookingStatus = Booking['status'];
export type BookingListQuery = NonNullable<
  paths['/console/api/bookings']['get']['parameters']['query']
>;
export type BookingInput = JsonBody<'/console/api/bookings', 'post'>;
export type BookingChanges = JsonBody<'/console/api/bookings/{id}', 'patch'>;
export type BookingCheckIn = JsonBody<'/console/api/bookings/{id}/check-in', 'post'>;
export type AssetAvailability = JsonResponse<'/console/api/assets/{id}/availability', 'get', 200>;
export type BookingSettings = JsonResponse<'/console/api/settings/bookings', 'get', 200>;
export type BookingSettingsChanges = JsonBody<'/console/api/settings/bookings', 'patch'>;
export type LicensePage = JsonResponse<'/console/api/licenses', 'get', 200>;
export type License = JsonResponse<'/console/api/licenses/{id}', 'get', 200>;
export type LicenseListQuery = NonNullable<
  paths['/console/api/licenses']['get']['parameters']['query']
>;
export type LicenseInput = JsonBody<'/console/api/licenses', 'post'>;
export type LicenseChanges = JsonBody<'/console/api/licenses/{id}', 'patch'>;
export type LicenseSeat = JsonResponse<'/console/api/licenses/{id}/seats', 'get', 200>[number];
export type LicenseSeatInput = JsonBody<'/console/api/licenses/{id}/seats', 'post'>;
export type LicenseKey = JsonResponse<'/console/api/licenses/{id}/key', 'post', 200>;
export type LicenseSettings = JsonResponse<'/console/api/settings/licenses', 'get', 200>;
export type LicenseSettingsChanges = JsonBody<'/console/api/settings/licenses', 'patch'>;
export type MaintenancePage = JsonResponse<'/console/api/maintenance', 'get', 200>;
export type Maintenance = JsonResponse<'/console/api/maintenance/{id}', 'get', 200>;
export type MaintenanceStatus = Maintenance['status'];
export type MaintenanceType = Maintenance['type'];
export type MaintenanceListQuery = NonNullable<
  paths['/console/api/maintenance']['get']['parameters']['query']
>;
export type MaintenanceInput = JsonBody<'/console/api/assets/{id}/maintenance', 'post'>;
export type MaintenanceChanges = JsonBody<'/console/api/maintenance/{id}', 'patch'>;
export type MaintenanceResolution = JsonBody<'/console/api/maintenance/{id}/resolve', 'post'>;
export type ReminderPage = JsonResponse<'/console/api/reminders', 'get', 200>;
export type Reminder = JsonResponse<'/console/api/reminders/{id}', 'get', 200>;
export type ReminderListQuery = NonNullable<
  paths['/console/api/reminders']['get']['parameters']['query']
>;
export type ReminderInput = JsonBody<'/console/api/reminders', 'post'>;
export type ReminderChanges = JsonBody<'/console/api/reminders/{id}', 'patch'>;

export type LocationPage = JsonResponse<'/console/api/locations', 'get', 200>;
export type Location = JsonResponse<'/console/api/locations/{id}', 'get', 200>;
export type LocationListQuery = NonNullable<
  paths['/console/api/locations']['get']['parameters']['query']
>;
export type LocationInput = JsonBody<'/console/api/locations', 'post'>;
export type LocationChanges = JsonBody<'/console/api/locations/{id}', 'patch'>;

export type CategoryPage = JsonResponse<'/console/api/categories', 'get', 200>;
export type Category = JsonResponse<'/console/api/categories/{id}', 'get', 200>;
export type CategoryListQuery = NonNullable<
  paths['/console/api/categories']['get']['parameters']['query']
>;
export type CategoryInput = JsonBody<'/console/api/categories', 'post'>;
export type CategoryChanges = JsonBody<'/console/api/categories/{id}', 'patch'>;

export type AuditPage = JsonResponse<'/console/api/audits', 'get', 200>;
export type Audit = JsonResponse<'/console/api/audits/{id}', 'get', 200>;
export type AuditListQuery = NonNullable<
  paths['/console/api/audits']['get']['parameters']['query']
>;
export type AuditInput = JsonBody<'/console/api/audits', 'post'>;
export type AuditItemPage = JsonResponse<'/console/api/audits/{id}/items', 'get', 200>;
export type AuditItem = AuditItemPage['data'][number];
export type AuditItemQuery = NonNullable<
  paths['/console/api/audits/{id}/items']['get']['parameters']['query']
>;
export type AuditScan = JsonResponse<'/console/api/audits/{id}/scans', 'post', 201>;
export type ConsoleAuditScanInput = JsonBody<'/console/api/audits/{id}/scans', 'post'>;
export type AuditCompletion = JsonBody<'/console/api/audits/{id}/complete', 'post'>;
export type ImportPage = JsonResponse<'/console/api/imports', 'get', 200>;
export type Import = JsonResponse<'/console/api/imports/{id}', 'get', 200>;
export type ImportStatus = Import['status'];
export type ImportQuery = NonNullable<paths['/console/api/imports']['post']['parameters']['query']>;
export type ImportRowPage = JsonResponse<'/console/api/imports/{id}/rows', 'get', 200>;
export type ImportRow = ImportRowPage['data'][number];
export type ImportRowQuery = NonNullable<
  paths['/console/api/imports/{id}/rows']['get']['parameters']['query']
>;
