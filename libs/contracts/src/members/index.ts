export * from './member.constants';
export * from './member.inputs';
export { InviteMemberMessage, UpdateMemberMessage } from './member.messages';
export * from './member.views';
