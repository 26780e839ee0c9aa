/** A malformed path or query value, answered 422 before any procedure runs. */
export class RestInputError extends Error {}
export const badRequestInput = (message: string) => new RestInputError(message);
