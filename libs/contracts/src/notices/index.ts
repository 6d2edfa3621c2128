export * from './notice.constants';
export * from './notice.inputs';
export { UpdateNoticeSettingsMessage } from './notice.messages';
export * from './notice.views';
