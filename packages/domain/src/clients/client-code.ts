import { InputError } from '../errors';

declare const clientCodeBrand: unique symbol;
/** A client's three capital letters (spec 1 §9), made only by {@link parseClientCode}. */
export type ClientCode = string & { readonly [clientCodeBrand]: true };

export const CLIENT_CODE_PATTERN = /^[A-Z]{3}$/;

export function isClientCode(value: string): value is ClientCode {
  return CLIENT_CODE_PATTERN.test(value);
}

export function parseClientCode(value: string, field = 'clientCode'): ClientCode {
  if (!isClientCode(value)) {
    throw new InputError(`${field} must be three capital letters (A-Z), got '${value}'`, field);
  }
  return value;
}
