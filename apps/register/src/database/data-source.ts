import { outboxEntity, workspacePlansEntity } from '@custodian/messaging';
import { activityEntity, createAppDataSource } from '@custodian/persistence';
import type { DataSource } from 'typeorm';
import { CreateActivity1763960000000 } from './migrations/1763960000000-CreateActivity';
import { AssetSortIndexes1763970000000 } from './migrations/1763970000000-AssetSortIndexes';
import { AssetEntity } from '../assets/asset.entity';
import { CategoryEntity } from '../categories/category.entity';
import { LocationEntity } from '../locations/location.entity';
import { WorkspaceCountersEntity } from '../counters/workspace-counters.entity';
import { CustomFieldEntity } from '../custom-fields/custom-field.entity';
import { InvitationEntity } from '../members/invitation.entity';
import { MemberEntity } from '../members/member.entity';
import { DepartmentEntity } from '../departments/department.entity';
import { PersonEntity } from '../people/person.entity';
import { CreateAssets1763770000000 } from './migrations/1763770000000-CreateAssets';
import { CreatePeopleAndCustomFields1763790000000 } from './migrations/1763790000000-CreatePeopleAndCustomFields';
import { IndexPublishedOutbox1763810000000 } from './migrations/1763810000000-IndexPublishedOutbox';
import { CreateMembers1763800000000 } from './migrations/1763800000000-CreateMembers';
import { HashInvitationTokens1763830000000 } from './migrations/1763830000000-HashInvitationTokens';
import { CreateAppliedRequests1763840000000 } from './migrations/1763840000000-CreateAppliedRequests';
import { CreateSignIn1763910000000 } from './migrations/1763910000000-CreateSignIn';
import { SearchByWorkspace1763920000000 } from './migrations/1763920000000-SearchByWorkspace';
import { ListBytesVersion1763930000000 } from './migrations/1763930000000-ListBytesVersion';
import { CustodyDueDates1763940000000 } from './migrations/1763940000000-CustodyDueDates';
import { AssetConditionScansAndBin1763950000000 } from './migrations/1763950000000-AssetConditionScansAndBin';
import { OutboxContext1763980000000 } from './migrations/1763980000000-OutboxContext';
import { NotifyOutbox1763990000000 } from './migrations/1763990000000-NotifyOutbox';
import { WorkspacePlans1764000000000 } from './migrations/1764000000000-WorkspacePlans';
import { CreateDueNotices1764010000000 } from './migrations/1764010000000-CreateDueNotices';
import { OverdueNotices1764020000000 } from './migrations/1764020000000-OverdueNotices';
import { CreateBookings1764400000000 } from './migrations/1764400000000-CreateBookings';
import { BookingApproval1764410000000 } from './migrations/1764410000000-BookingApproval';
import { CreateCalendarFeeds1764450000000 } from './migrations/1764450000000-CreateCalendarFeeds';
import { CreateLicenses1764460000000 } from './migrations/1764460000000-CreateLicenses';
import { CreateAssetRequests1764470000000 } from './migrations/1764470000000-CreateAssetRequests';
import { BookingRangeIndex1764480000000 } from './migrations/1764480000000-BookingRangeIndex';
import { NoticeSettings1764490000000 } from './migrations/1764490000000-NoticeSettings';
import { CreateMaintenance1764510000000 } from './migrations/1764510000000-CreateMaintenance';
import { MaintenanceEntity } from '../maintenance/maintenance.entity';
import { AssetWarranty1764500000000 } from './migrations/1764500000000-AssetWarranty';
import { CreateReminders1764520000000 } from './migrations/1764520000000-CreateReminders';
import { LicenseSettings1764540000000 } from './migrations/1764540000000-LicenseSettings';
import { MaintenanceReminder1764550000000 } from './migrations/1764550000000-MaintenanceReminder';
import { LocationTree1764560000000 } from './migrations/1764560000000-LocationTree';
import { CreateAudits1764570000000 } from './migrations/1764570000000-CreateAudits';
import { PeopleUpdatedIndex1764580000000 } from './migrations/1764580000000-PeopleUpdatedIndex';
import { CreateImports1764590000000 } from './migrations/1764590000000-CreateImports';
import { ImportEntity, ImportRowEntity } from '../imports/import.entity';
import { AuditEntity, AuditItemEntity } from '../audits/audit.entity';
import { LicenseSettingsEntity } from '../licenses/license-settings.entity';
import { ReminderEntity } from '../reminders/reminder.entity';
import { NoticeSettingsEntity } from '../notices/notice-settings.entity';
import { AssetRequestEntity } from '../asset-requests/asset-request.entity';
import { LicenseEntity, LicenseSeatEntity } from '../licenses/license.entity';
import {
  BookingAssetEntity,
  BookingEntity,
  BookingSettingsEntity,
} from '../bookings/booking.entity';
import { CalendarFeedEntity } from '../calendar/calendar-feed.entity';
import { DeletedAssetEntity } from '../assets/deleted-asset.entity';
import { DueNoticeEntity } from '../due-dates/due-notice.entity';
import { AppliedRequestEntity } from '../requests/applied-request.entity';
import { LoginEntity } from '../sign-in/login.entity';
import { SignInLinkEntity } from '../sign-in/sign-in-link.entity';

import { EndpointDisabledNotices1764620000000 } from './migrations/1764620000000-EndpointDisabledNotices';
import { EndpointDisabledNoticeEntity } from '../endpoint-health/endpoint-disabled-notice.entity';

export const REGISTER_SCHEMA = 'register';

/**
 * `statementTimeoutMs` for the serving pool (migrations take as long as they need): no query
 * outlives the callers who wait for it; writes bind a tighter one to their own deadline.
 */
export function registerDataSource(
  url: string,
  poolSize?: number,
  statementTimeoutMs?: number,
): DataSource {
  return createAppDataSource({
    statementTimeoutMs,
    url,
    schema: REGISTER_SCHEMA,
    migrations: [
      CreateAssets1763770000000,
      CreatePeopleAndCustomFields1763790000000,
      CreateMembers1763800000000,
      IndexPublishedOutbox1763810000000,
      HashInvitationTokens1763830000000,
      CreateAppliedRequests1763840000000,
      CreateSignIn1763910000000,
      SearchByWorkspace1763920000000,
      ListBytesVersion1763930000000,
      CustodyDueDates1763940000000,
      AssetConditionScansAndBin1763950000000,
      CreateActivity1763960000000,
      AssetSortIndexes1763970000000,
      OutboxContext1763980000000,
      NotifyOutbox1763990000000,
      WorkspacePlans1764000000000,
      CreateDueNotices1764010000000,
      OverdueNotices1764020000000,
      CreateBookings1764400000000,
      BookingApproval1764410000000,
      CreateCalendarFeeds1764450000000,
      CreateLicenses1764460000000,
      CreateAssetRequests1764470000000,
      BookingRangeIndex1764480000000,
      NoticeSettings1764490000000,
      CreateMaintenance1764510000000,
      AssetWarranty1764500000000,
      CreateReminders1764520000000,
      LicenseSettings1764540000000,
      MaintenanceReminder1764550000000,
      LocationTree1764560000000,
      CreateAudits1764570000000,
      PeopleUpdatedIndex1764580000000,
      CreateImports1764590000000,
      EndpointDisabledNotices1764620000000,
    ],
    entities: [
      CategoryEntity,
      LocationEntity,
      WorkspaceCountersEntity,
      AssetEntity,
      DeletedAssetEntity,
      outboxEntity(REGISTER_SCHEMA),
      DepartmentEntity,
      PersonEntity,
      CustomFieldEntity,
      MemberEntity,
      InvitationEntity,
      AppliedRequestEntity,
      SignInLinkEntity,
      LoginEntity,
      activityEntity(REGISTER_SCHEMA),
      workspacePlansEntity(REGISTER_SCHEMA),
      DueNoticeEntity,
      BookingEntity,
      BookingAssetEntity,
      BookingSettingsEntity,
      CalendarFeedEntity,
      LicenseEntity,
      LicenseSeatEntity,
      AssetRequestEntity,
      NoticeSettingsEntity,
      MaintenanceEntity,
      ReminderEntity,
      LicenseSettingsEntity,
      AuditEntity,
      ImportEntity,
      ImportRowEntity,
      AuditItemEntity,
      EndpointDisabledNoticeEntity,
    ],
    applicationName: 'custodian-register',
    poolSize,
  });
}
