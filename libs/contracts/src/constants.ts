// The contract's plain lists and numbers, with no decorator, class or package behind them:
// `@custodian/contracts/constants`, the entry point the console's browser bundle imports (the
// barrel pulls class-validator, and through the messages NestJS and amqplib). Every
// `*.constants.ts` of a domain imports nothing (the role matrix of session.permissions.ts only
// a type), which keeps this file free to import.
export * from './activity/activity.constants';
export * from './assets/asset.constants';
export * from './bookings/booking.constants';
export * from './csv/csv.constants';
export * from './imports/import.constants';
export * from './calendar/calendar.constants';
export * from './custom-fields/custom-field.constants';
export * from './deliveries/delivery.constants';
export * from './events/event.constants';
export * from './locations/location.constants';
export * from './members/member.constants';
export * from './people/person.constants';
export * from './session/session.permissions';
export * from './sign-in/sign-in.constants';
export * from './usage/usage.constants';
export * from './webhooks/webhook.constants';
export * from './workspaces/key.constants';
export * from './workspaces/plan.constants';
