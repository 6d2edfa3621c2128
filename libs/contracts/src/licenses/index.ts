export * from './license.constants';
export * from './license.inputs';
export {
  AssignSeatMessage,
  CreateLicenseMessage,
  LicenseListMessage,
  ReleaseSeatMessage,
  UpdateLicenseMessage,
  UpdateLicenseSettingsMessage,
} from './license.messages';
export * from './license.views';
