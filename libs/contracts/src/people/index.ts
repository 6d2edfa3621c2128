export * from './person.constants';
export * from './person.inputs';
export { CreatePersonMessage, UpdatePersonMessage } from './person.messages';
export * from './person.views';
