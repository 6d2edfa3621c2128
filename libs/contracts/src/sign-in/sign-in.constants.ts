export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;
export const SIGN_IN_LINK_TTL_MINUTES = 15;
