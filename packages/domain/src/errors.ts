/** Business errors, analogous to HTTP errors; the server maps `name` to a status once. */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

export class ConflictError extends Error {
  override readonly name = 'ConflictError';
}

export class NotAllowedError extends Error {
  override readonly name = 'NotAllowedError';
}

export class AuthenticationError extends Error {
  override readonly name = 'AuthenticationError';
}
