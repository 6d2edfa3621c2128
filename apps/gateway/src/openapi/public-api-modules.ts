import { AssetRequestsModule } from '../asset-requests/asset-requests.module';
import { AssetsModule } from '../assets/assets.module';
import { AuditsModule } from '../audits/audits.module';
import { BookingsModule } from '../bookings/bookings.module';
import { CategoriesModule } from '../categories/categories.module';
import { EventsModule } from '../events/events.module';
import { ImportsModule } from '../imports/imports.module';
import { LocationsModule } from '../locations/locations.module';
import { InvitationsModule } from '../invitations/invitations.module';
import { LicensesModule } from '../licenses/licenses.module';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { NoticesModule } from '../notices/notices.module';
import { MembersModule } from '../members/members.module';
import { PeopleModule } from '../people/people.module';
import { PingModule } from '../ping/ping.module';
import { RemindersModule } from '../reminders/reminders.module';

/** The modules whose routes make up the public API (/api/v1) and its document. */
export const PUBLIC_API_MODULES = [
  PingModule,
  AssetsModule,
  PeopleModule,
  LocationsModule,
  CategoriesModule,
  BookingsModule,
  AssetRequestsModule,
  LicensesModule,
  MaintenanceModule,
  NoticesModule,
  RemindersModule,
  AuditsModule,
  EventsModule,
  ImportsModule,
  MembersModule,
  InvitationsModule,
];
