export * from './maintenance.constants';
export * from './maintenance.inputs';
export {
  AssetMaintenanceListMessage,
  CreateMaintenanceMessage,
  MaintenanceListMessage,
  ResolveMaintenanceMessage,
  UpdateMaintenanceMessage,
} from './maintenance.messages';
export * from './maintenance.views';
