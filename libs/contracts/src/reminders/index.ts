export * from './reminder.constants';
export * from './reminder.inputs';
export {
  CreateReminderMessage,
  ReminderListMessage,
  UpdateReminderMessage,
} from './reminder.messages';
export * from './reminder.views';
