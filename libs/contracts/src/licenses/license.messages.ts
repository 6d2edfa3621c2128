import { Type } from 'class-transformer';
import { IsString, ValidateNested } from 'class-validator';
import { reply, rpc } from '../rpc/contract';
import { LIST, READ } from '../rpc/message-options';
import { CallerMessage, ConditionalRecordMessage, RecordMessage } from '../rpc/messages';
import type { Page } from '../shared/paging';
import {
  AssignSeatInput,
  CreateLicenseInput,
  LicenseListQuery,
  UpdateLicenseInput,
  UpdateLicenseSettingsInput,
} from './license.inputs';
import type { License, LicenseKey, LicenseSeat, LicenseSettings } from './license.views';

export class CreateLicenseMessage extends CallerMessage {
  @ValidateNested() @Type(() => CreateLicenseInput) body!: CreateLicenseInput;
}

export class UpdateLicenseMessage extends ConditionalRecordMessage {
  @ValidateNested() @Type(() => UpdateLicenseInput) body!: UpdateLicenseInput;
}

export class LicenseListMessage extends CallerMessage {
  @ValidateNested() @Type(() => LicenseListQuery) query!: LicenseListQuery;
}

export class AssignSeatMessage extends RecordMessage {
  @ValidateNested() @Type(() => AssignSeatInput) body!: AssignSeatInput;
}

export class ReleaseSeatMessage extends RecordMessage {
  @IsString() seatId!: string;
}

export class UpdateLicenseSettingsMessage extends CallerMessage {
  @ValidateNested() @Type(() => UpdateLicenseSettingsInput) body!: UpdateLicenseSettingsInput;
}

/** The licences of the register's API queue (RegisterRpc). */
export const LICENSE_RPC = {
  licensesList: rpc('licenses.list', LicenseListMessage, reply<Page<License>>(), LIST),
  licensesGet: rpc('licenses.get', RecordMessage, reply<License>(), READ),
  licensesCreate: rpc('licenses.create', CreateLicenseMessage, reply<License>()),
  licensesUpdate: rpc('licenses.update', UpdateLicenseMessage, reply<License>()),
  licensesDelete: rpc('licenses.delete', ConditionalRecordMessage, reply<License>()),
  licensesRestore: rpc('licenses.restore', RecordMessage, reply<License>()),
  licensesRevealKey: rpc('licenses.reveal-key', RecordMessage, reply<LicenseKey>()),
  licenseSeatsList: rpc('licenses.seats.list', RecordMessage, reply<LicenseSeat[]>(), READ),
  licenseSeatsAssign: rpc('licenses.seats.assign', AssignSeatMessage, reply<LicenseSeat>()),
  licenseSeatsRelease: rpc('licenses.seats.release', ReleaseSeatMessage, reply<LicenseSeat>()),
  licenseSettingsGet: rpc('licenses.settings.get', CallerMessage, reply<LicenseSettings>(), READ),
  licenseSettingsUpdate: rpc(
    'licenses.settings.update',
    UpdateLicenseSettingsMessage,
    reply<LicenseSettings>(),
  ),
};
