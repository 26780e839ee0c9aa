import { z } from 'zod';

/** The NOTIFY channel of pushes written by someone other than the sender (the topic bus's `push` topic). */
export const PUSH_CHANNEL = 'push_queued';

/**
 * Pushes were written into push_delivery (the 1-hour reminder, by whichever instance ran it): the sending
 * instance loads the ones it does not hold yet.
 */
export const pushQueued = z.object({ pushes: z.number().int() });
