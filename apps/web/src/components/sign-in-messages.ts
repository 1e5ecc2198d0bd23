/** Spec 1 §8: the sign-in failure text. */
export const LOGIN_FAILED = 'Login failed. Please try again.';
