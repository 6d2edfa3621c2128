export * from './csv.constants';
export * from './csv.messages';
