import { Route, Routes } from 'react-router';
import { AccountPage } from '../account/account.page';
import { ActivityPage } from '../activity/activity.page';
import { AssetFormPage } from '../assets/asset-form.page';
import { AssetPage } from '../assets/asset.page';
import { AssetsPage } from '../assets/assets.page';
import { BinPage } from '../assets/bin.page';
import { LabelPage } from '../assets/label.page';
import { ScanPage } from '../assets/scan.page';
import { BookingFormPage } from '../bookings/booking-form.page';
import { BookingPage } from '../bookings/booking.page';
import { BookingsPage } from '../bookings/bookings.page';
import { CalendarPage } from '../bookings/calendar.page';
import { DeliveriesPage } from '../deliveries/deliveries.page';
import { DeliveryPage } from '../deliveries/delivery.page';
import { KeysPage } from '../keys/keys.page';
import { LicenseFormPage } from '../licenses/license-form.page';
import { LicensePage } from '../licenses/license.page';
import { LicensesPage } from '../licenses/licenses.page';
import { MaintenancePage } from '../maintenance/maintenance.page';
import { ReminderFormPage } from '../reminders/reminder-form.page';
import { ReminderPage } from '../reminders/reminder.page';
import { RemindersPage } from '../reminders/reminders.page';
import { LocationPage } from '../locations/location.page';
import { LocationsPage } from '../locations/locations.page';
import { CategoriesPage } from '../categories/categories.page';
import { AuditPage } from '../audits/audit.page';
import { AuditsPage } from '../audits/audits.page';
import { ImportPage } from '../imports/import.page';
import { ImportsPage } from '../imports/imports.page';
import { MembersPage } from '../members/members.page';
import { OverviewPage } from '../overview/overview.page';
import { PeoplePage } from '../people/people.page';
import { PersonFormPage } from '../people/person-form.page';
import { PersonPage } from '../people/person.page';
import { RequestFormPage } from '../requests/request-form.page';
import { RequestPage } from '../requests/request.page';
import { RequestsPage } from '../requests/requests.page';
import { AcceptInvitationPage } from '../sign-in/accept-invitation.page';
import { SignInLinkPage } from '../sign-in/sign-in-link.page';
import { SignInPage } from '../sign-in/sign-in.page';
import { EndpointFormPage } from '../webhooks/endpoint-form.page';
import { EndpointPage } from '../webhooks/endpoint.page';
import { WebhooksPage } from '../webhooks/webhooks.page';
import { UsagePage } from '../usage/usage.page';
import { WorkspacesPage } from '../workspaces/workspaces.page';
import { RequirePermission, RequireSignIn, RequireWorkspace } from './guards';
import { Layout } from './layout';
import { NotFoundPage } from './not-found.page';

/** Every screen, under the router's basename /console. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route path="sign-in" element={<SignInPage />} />
        <Route path="sign-in/link" element={<SignInLinkPage />} />
        <Route path="invitations/accept" element={<AcceptInvitationPage />} />
        <Route element={<RequireSignIn />}>
          <Route path="workspaces" element={<WorkspacesPage />} />
          <Route path="account" element={<AccountPage />} />
        </Route>
        <Route element={<RequireWorkspace />}>
          <Route index element={<OverviewPage />} />
          <Route
            path="assets"
            element={
              <RequirePermission permission="assets.view" action="see assets">
                <AssetsPage />
              </RequirePermission>
            }
          />
          <Route
            path="assets/new"
            element={
              <RequirePermission permission="assets.manage" action="add assets">
                <AssetFormPage />
              </RequirePermission>
            }
          />
          <Route
            path="assets/bin"
            element={
              <RequirePermission permission="assets.view" action="see assets">
                <BinPage />
              </RequirePermission>
            }
          />
          <Route
            path="assets/:id"
            element={
              <RequirePermission permission="assets.view" action="see assets">
                <AssetPage />
              </RequirePermission>
            }
          />
          <Route
            path="assets/:id/edit"
            element={
              <RequirePermission permission="assets.manage" action="change assets">
                <AssetFormPage />
              </RequirePermission>
            }
          />
          <Route
            path="assets/:id/label"
            element={
              <RequirePermission permission="assets.view" action="see assets">
                <LabelPage />
              </RequirePermission>
            }
          />
          <Route
            path="people"
            element={
              <RequirePermission permission="people.view" action="see people">
                <PeoplePage />
              </RequirePermission>
            }
          />
          <Route
            path="people/new"
            element={
              <RequirePermission permission="people.manage" action="add people">
                <PersonFormPage />
              </RequirePermission>
            }
          />
          <Route
            path="people/:id"
            element={
              <RequirePermission permission="people.view" action="see people">
                <PersonPage />
              </RequirePermission>
            }
          />
          <Route
            path="people/:id/edit"
            element={
              <RequirePermission permission="people.manage" action="change people">
                <PersonFormPage />
              </RequirePermission>
            }
          />
          <Route
            path="bookings"
            element={
              <RequirePermission permission="bookings.view" action="see bookings">
                <BookingsPage />
              </RequirePermission>
            }
          />
          <Route
            path="bookings/new"
            element={
              <RequirePermission permission="bookings.request" action="book assets">
                <BookingFormPage />
              </RequirePermission>
            }
          />
          <Route
            path="calendar"
            element={
              <RequirePermission permission="bookings.view" action="see bookings">
                <CalendarPage />
              </RequirePermission>
            }
          />
          <Route
            path="bookings/:id"
            element={
              <RequirePermission permission="bookings.view" action="see bookings">
                <BookingPage />
              </RequirePermission>
            }
          />
          <Route
            path="requests"
            element={
              <RequirePermission permission="requests.view" action="see asset requests">
                <RequestsPage />
              </RequirePermission>
            }
          />
          <Route
            path="requests/new"
            element={
              <RequirePermission permission="requests.view" action="ask for assets">
                <RequestFormPage />
              </RequirePermission>
            }
          />
          <Route
            path="requests/:id"
            element={
              <RequirePermission permission="requests.view" action="see asset requests">
                <RequestPage />
              </RequirePermission>
            }
          />
          <Route
            path="licenses"
            element={
              <RequirePermission permission="licenses.view" action="see licences">
                <LicensesPage />
              </RequirePermission>
            }
          />
          <Route
            path="licenses/new"
            element={
              <RequirePermission permission="licenses.manage" action="add licences">
                <LicenseFormPage />
              </RequirePermission>
            }
          />
          <Route
            path="licenses/:id"
            element={
              <RequirePermission permission="licenses.view" action="see licences">
                <LicensePage />
              </RequirePermission>
            }
          />
          <Route
            path="locations"
            element={
              <RequirePermission permission="locations.view" action="see locations">
                <LocationsPage />
              </RequirePermission>
            }
          />
          <Route
            path="locations/:id"
            element={
              <RequirePermission permission="locations.view" action="see locations">
                <LocationPage />
              </RequirePermission>
            }
          />
          <Route
            path="audits"
            element={
              <RequirePermission permission="audits.view" action="see audits">
                <AuditsPage />
              </RequirePermission>
            }
          />
          <Route
            path="audits/:id"
            element={
              <RequirePermission permission="audits.view" action="see audits">
                <AuditPage />
              </RequirePermission>
            }
          />
          <Route
            path="imports"
            element={
              <RequirePermission permission="imports.manage" action="import files">
                <ImportsPage />
              </RequirePermission>
            }
          />
          <Route
            path="imports/:id"
            element={
              <RequirePermission permission="imports.manage" action="import files">
                <ImportPage />
              </RequirePermission>
            }
          />
          <Route
            path="categories"
            element={
              <RequirePermission permission="categories.view" action="see categories">
                <CategoriesPage />
              </RequirePermission>
            }
          />
          <Route
            path="reminders"
            element={
              <RequirePermission permission="reminders.view" action="see reminders">
                <RemindersPage />
              </RequirePermission>
            }
          />
          <Route
            path="reminders/new"
            element={
              <RequirePermission permission="reminders.manage" action="add reminders">
                <ReminderFormPage />
              </RequirePermission>
            }
          />
          <Route
            path="reminders/:id"
            element={
              <RequirePermission permission="reminders.view" action="see reminders">
                <ReminderPage />
              </RequirePermission>
            }
          />
          <Route
            path="reminders/:id/edit"
            element={
              <RequirePermission permission="reminders.manage" action="change reminders">
                <ReminderFormPage />
              </RequirePermission>
            }
          />
          <Route
            path="maintenance"
            element={
              <RequirePermission permission="maintenance.view" action="see maintenance records">
                <MaintenancePage />
              </RequirePermission>
            }
          />
          <Route
            path="scan"
            element={
              <RequirePermission permission="assets.scan" action="scan assets">
                <ScanPage />
              </RequirePermission>
            }
          />
          <Route
            path="members"
            element={
              <RequirePermission permission="members.view" action="see members">
                <MembersPage />
              </RequirePermission>
            }
          />
          <Route
            path="activity"
            element={
              <RequirePermission permission="workspace.view" action="see the activity">
                <ActivityPage />
              </RequirePermission>
            }
          />
          <Route
            path="usage"
            element={
              <RequirePermission permission="workspace.view" action="see the plan and usage">
                <UsagePage />
              </RequirePermission>
            }
          />
          <Route
            path="keys"
            element={
              <RequirePermission permission="keys.view" action="see API keys">
                <KeysPage />
              </RequirePermission>
            }
          />
          <Route
            path="webhooks"
            element={
              <RequirePermission permission="webhooks.view" action="see webhooks">
                <WebhooksPage />
              </RequirePermission>
            }
          />
          <Route
            path="webhooks/new"
            element={
              <RequirePermission permission="webhooks.manage" action="add webhook endpoints">
                <EndpointFormPage />
              </RequirePermission>
            }
          />
          <Route
            path="webhooks/:id"
            element={
              <RequirePermission permission="webhooks.view" action="see webhooks">
                <EndpointPage />
              </RequirePermission>
            }
          />
          <Route
            path="webhooks/:id/edit"
            element={
              <RequirePermission permission="webhooks.manage" action="change webhook endpoints">
                <EndpointFormPage />
              </RequirePermission>
            }
          />
          <Route
            path="deliveries"
            element={
              <RequirePermission permission="webhooks.view" action="see the delivery log">
                <DeliveriesPage />
              </RequirePermission>
            }
          />
          <Route
            path="deliveries/:id"
            element={
              <RequirePermission permission="webhooks.view" action="see the delivery log">
                <DeliveryPage />
              </RequirePermission>
            }
          />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
