export * from './activity.constants';
export * from './activity.inputs';
export { ActivityListMessage } from './activity.messages';
export * from './activity.views';
