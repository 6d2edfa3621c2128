// How every consumer checks what it receives: the contract validation pipe and its error wording.
export * from './validation';
export * from './contract-validation.pipe';
