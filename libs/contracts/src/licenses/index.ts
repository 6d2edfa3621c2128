export * from './license.constants';
export * from './license.inputs';
export {
  AssignSeatMessage,
  CreateLicenseMessage,
  LicenseListMessage,
  ReleaseSeatMessage,
  UpdateLicenseMessage,
} from './license.messages';
export * from './license.views';
