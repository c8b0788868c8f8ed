/** Phone numbers: digits with an optional leading +, 6 to 20 digits. */
export const PHONE_PATTERN = /^\+?\d{6,20}$/;
export const PHONE_MESSAGE = '$property must be digits with an optional leading + (6 to 20 digits)';
