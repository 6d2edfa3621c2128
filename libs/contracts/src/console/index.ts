export * from './assets';
export * from './keys';
export * from './permissions';
export * from './session';
export * from './usage';
export * from './webhooks';
